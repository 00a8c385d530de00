/**
 * Only certified accounts send (spec 01; the server refuses every send path of an account whose
 * certification has not passed: docs/api-send.md "Who may send"). The send pages say it before the
 * user fills them: a warning with a link to 资质认证, and the submit button disabled. The status is
 * the layout banner's (one query, useCertification). An agent sending for a sub-account whose
 * certification has not passed gets the server's refusal at the charge confirmation.
 */
import { Alert } from 'antd';
import { Link } from 'react-router';
import { CERTIFY_ROUTE, oauthStatusOf } from '@/domain/certification';
import { SEND_MESSAGES } from '@/domain/send';
import { useCertification, useCurrentUser } from '@/layout/hooks';
import { OauthStatus } from '@/generated/schemas';

/** true once the account's status is known and is not 已认证 */
export function useSendBlocked(): boolean {
  const { user } = useCurrentUser();
  const { info } = useCertification(user);
  const status = oauthStatusOf(info?.oauth_status ?? (user as { oauth_status?: unknown } | null)?.oauth_status);
  return status !== undefined && status !== OauthStatus.Certified;
}

export function CertifiedNotice({ blocked }: { blocked: boolean }) {
  if (!blocked) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={SEND_MESSAGES.notCertified}
      action={<Link to={CERTIFY_ROUTE}>前往资质认证</Link>}
      data-testid="send-not-certified"
    />
  );
}
