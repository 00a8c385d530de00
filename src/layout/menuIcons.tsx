/** Icon names usable in the screen tables (src/screens.tsx, src/ops/screens.tsx) -> antd icons. */
import {
  AccountBookOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  DashboardOutlined,
  EditOutlined,
  FileSearchOutlined,
  IdcardOutlined,
  InboxOutlined,
  FileTextOutlined,
  HomeOutlined,
  LineChartOutlined,
  MessageOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  ShoppingCartOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';

export const menuIcons = {
  home: <HomeOutlined />,
  send: <MessageOutlined />,
  template: <FileTextOutlined />,
  purchase: <ShoppingCartOutlined />,
  customer: <TeamOutlined />,
  finance: <AccountBookOutlined />,
  account: <UserOutlined />,
  certification: <SafetyCertificateOutlined />,
  notice: <BellOutlined />,
  help: <QuestionCircleOutlined />,
  content: <SafetyOutlined />,
  report: <BarChartOutlined />,
  other: <AppstoreOutlined />,
  // the operator console
  dashboard: <DashboardOutlined />,
  review: <AuditOutlined />,
  sign: <EditOutlined />,
  audit: <FileSearchOutlined />,
  operators: <IdcardOutlined />,
  channel: <ApiOutlined />,
  monitor: <LineChartOutlined />,
  archive: <InboxOutlined />,
};

export type MenuIconName = keyof typeof menuIcons;

export const iconOf = (name?: string) => (name ? (menuIcons[name as MenuIconName] ?? menuIcons.other) : undefined);
