/**
 * The certification prompt above the content: 未认证 asks to certify, 待认证 says the documents
 * are being reviewed, 认证不通过 shows the reason and a re-certify link. Certified: nothing.
 */
import { Alert } from 'antd';
import { Link } from 'react-router';
import { CERTIFICATION_PENDING_TEXT, CERTIFY_ROUTE, RECERTIFY_ROUTE, oauthStatusOf } from '@/domain/certification';
import type { CertificationInfo } from './hooks';
import { OauthStatus } from '@/generated/schemas';

export function CertificationBanner({ info }: { info?: CertificationInfo }) {
  const status = oauthStatusOf(info?.oauth_status);
  if (status === OauthStatus.Uncertified) {
    return (
      <Alert
        type="warning"
        showIcon
        banner
        data-testid="certification-banner"
        message={
          <span>
            您还未进行资质认证，认证通过后才能发送短信，<Link to={CERTIFY_ROUTE}>立即认证</Link>
          </span>
        }
      />
    );
  }
  if (status === OauthStatus.Pending) {
    return (
      <Alert type="info" showIcon banner data-testid="certification-banner" message={CERTIFICATION_PENDING_TEXT} />
    );
  }
  if (status === OauthStatus.Rejected) {
    return (
      <Alert
        type="error"
        showIcon
        banner
        data-testid="certification-banner"
        message={
          <span>
            您的资质认证未通过{info?.oauth_remark ? `，原因：${info.oauth_remark}` : ''}。请修改资料后
            <Link to={RECERTIFY_ROUTE}>重新认证</Link>
          </span>
        }
      />
    );
  }
  return null;
}
