/** Icon names usable in the screen table (src/screens.tsx) -> antd icons. */
import {
  AccountBookOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  FileTextOutlined,
  HomeOutlined,
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
};

export type MenuIconName = keyof typeof menuIcons;

export const iconOf = (name?: string) => (name ? (menuIcons[name as MenuIconName] ?? menuIcons.other) : undefined);
