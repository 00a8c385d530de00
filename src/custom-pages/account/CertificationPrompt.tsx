/**
 * The certification prompt (spec: "You have not passed system authentication, go to qualification
 * authentication?"): 您尚未通过系统认证，是否前往资质认证？ with 是 / 否. 是 goes to the certification
 * screen. Other screens (purchase, open account) guard an action with the hook:
 *
 *   const { requireCertified, prompt } = useCertificationPrompt();
 *   <Button onClick={() => requireCertified(() => buy())}>购买</Button>
 *   {prompt}
 */
import { useState, type ReactNode } from 'react';
import { Modal } from 'antd';
import { useNavigate } from 'react-router';
import { CERTIFY_ROUTE, isCertified } from '@/domain/certification';
import { useCertification, useCurrentUser } from '@/layout/hooks';

export const CERTIFICATION_PROMPT_TEXT = '您尚未通过系统认证，是否前往资质认证？';

export interface CertificationPromptProps {
  open: boolean;
  onClose: () => void;
  /** where 是 goes (default /account/info/base/auth) */
  to?: string;
}

export function CertificationPrompt({ open, onClose, to = CERTIFY_ROUTE }: CertificationPromptProps) {
  const navigate = useNavigate();
  return (
    <Modal
      open={open}
      title="提示"
      okText="是"
      cancelText="否"
      onOk={() => {
        onClose();
        void navigate(to);
      }}
      onCancel={onClose}
      data-testid="certification-prompt"
      destroyOnHidden
    >
      {CERTIFICATION_PROMPT_TEXT}
    </Modal>
  );
}

/**
 * `requireCertified(action)` runs `action` when the account is certified (oauth_status 3),
 * otherwise opens the prompt. `prompt` must be rendered by the caller.
 */
export function useCertificationPrompt(): {
  requireCertified: (action?: () => void) => boolean;
  prompt: ReactNode;
  certified: boolean;
  isLoading: boolean;
} {
  const { user, isLoading: userLoading } = useCurrentUser();
  const { info, isLoading: certLoading } = useCertification(user);
  const isLoading = userLoading || !user || certLoading || !info;
  const [open, setOpen] = useState(false);
  const certified = isCertified(info?.oauth_status ?? user?.oauth_status);
  const requireCertified = (action?: () => void) => {
    if (certified) {
      action?.();
      return true;
    }
    setOpen(true);
    return false;
  };
  return {
    requireCertified,
    certified,
    isLoading,
    prompt: <CertificationPrompt open={open} onClose={() => setOpen(false)} />,
  };
}
