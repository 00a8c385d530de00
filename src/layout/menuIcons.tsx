/** Icon names usable in the menu config (menu.ts) -> antd icons. */
import type { ReactNode } from 'react';
import {
  AccountBookOutlined,
  AppstoreOutlined,
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

export const menuIcons: Record<string, ReactNode> = {
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
  other: <AppstoreOutlined />,
};

export const iconOf = (name?: string) => (name ? (menuIcons[name] ?? menuIcons.other) : undefined);
