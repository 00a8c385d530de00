export { PublicLayout, type PublicLayoutProps } from './PublicLayout';
export { usePublicInfo, type Branding, type SupportContact } from './usePublicInfo';
