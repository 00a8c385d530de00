/**
 * Only certified accounts send (spec 01; the server refuses every send path of an account whose
 * certification has not passed: docs/api-send.md "Who may send"). The send pages say it before the
 * user fills them: a warning with a link to 资质认证, and the submit button disabled. The status is
 * the layout banner's (one query, useCertification). An agent sending for a sub-account whose
 * certification has not passed gets the server's refusal at the charge confirmation.
 */
import { Alert } from 'antd';
import { Link } from 'react-router';
import { CERTIFICATION_PENDING_TEXT, CERTIFY_ROUTE, oauthStatusOf } from '@/domain/certification';
import { SEND_MESSAGES } from '@/domain/send';
import { useCertification, useCurrentUser } from '@/layout/hooks';
import { OauthStatus } from '@/generated/schemas';

/** the account's certification status (the layout banner's query), undefined until known */
function useOwnStatus(): OauthStatus | undefined {
  const { user } = useCurrentUser();
  const { info } = useCertification(user);
  return oauthStatusOf(info?.oauth_status ?? (user as { oauth_status?: unknown } | null)?.oauth_status);
}

/** true once the account's status is known and is not 已认证 */
export function useSendBlocked(): boolean {
  const status = useOwnStatus();
  return status !== undefined && status !== OauthStatus.Certified;
}

/**
 * The page's certification notice (the layout's banner stays away from the send pages: the
 * screens declare `showsCertification`): documents under review say so, any other state asks to
 * certify.
 */
export function CertifiedNotice({ blocked }: { blocked: boolean }) {
  const status = useOwnStatus();
  if (!blocked) return null;
  const pending = status === OauthStatus.Pending;
  return (
    <Alert
      type={pending ? 'info' : 'warning'}
      showIcon
      style={{ marginBottom: 16 }}
      message={pending ? CERTIFICATION_PENDING_TEXT : SEND_MESSAGES.notCertified}
      action={<Link to={CERTIFY_ROUTE}>{pending ? '查看认证资料' : '前往资质认证'}</Link>}
      data-testid="send-not-certified"
    />
  );
}
