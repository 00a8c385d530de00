/**
 * /account/info/base/auth (资质认证) and /account/info/base/auth/re (重新认证).
 *
 * - With `?clientId=` (an agent looking at one of its sub-accounts): that account's certification
 *   (GET /client/cer/info), the already-authenticated view.
 * - Otherwise the account's own (GET /admin/cer/info): 未认证 -> the form (personal by default,
 *   `?type=2` enterprise); 待认证 / 已认证 -> the submitted data with its state; 认证不通过 -> the
 *   reason and the re-certification form. After a submit the view shows 待认证 and the layout's
 *   banner follows (every query refetches). Opening the page asks the shell's status again; while
 *   待认证 the shell asks every 30 s and on focus, and an approval refetches this page too
 *   (useCertificationWatch): no reload needed.
 */
import { useEffect } from 'react';
import { Alert, Result, Skeleton } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { oauthStatusOf } from '@/domain/certification';
import { fieldLabel } from '@/schema';
import { useRefreshCertification } from '@/layout/hooks';
import { useClientCertification, useOwnCertification, useRefreshAll } from './api';
import { useScreenPath } from '@/layout/screens';
import { CertificationForm } from './CertificationForm';
import { CertificationView } from './CertificationView';
import { CertType, OauthStatus } from '@/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

function ClientCertification({ clientId }: { clientId: string }) {
  const { data, isLoading, isError } = useClientCertification(clientId);
  if (isLoading) return <Skeleton active />;
  if (isError || !data) return <Result status="warning" title={MESSAGES.certificationFetchFailed} />;
  return <CertificationView info={data} title={`账户 ${data.clientid} 的资质信息`} />;
}

export function OwnCertification({ re = false }: { re?: boolean }) {
  const authPath = useScreenPath('account_info_auth');
  const { data, isLoading, isError } = useOwnCertification();
  // the page shows the status: the shell asks for it again too, and a change (an approval while
  // 待认证) refetches every query, this page's included (useCertificationWatch)
  const refreshCertification = useRefreshCertification();
  useEffect(() => {
    void refreshCertification();
  }, [refreshCertification]);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const refreshAll = useRefreshAll();
  if (isLoading) return <Skeleton active />;
  if (isError || !data) return <Result status="warning" title={MESSAGES.certificationFetchFailed} />;
  const status = oauthStatusOf(data.oauth_status);
  const typeParam = Number(params.get('type'));
  const defaultType =
    typeParam === CertType.Enterprise
      ? CertType.Enterprise
      : typeParam === CertType.Personal
        ? CertType.Personal
        : undefined;
  const submitted = async () => {
    await refreshAll();
    if (re) void navigate(authPath);
  };
  if (status === OauthStatus.Uncertified) {
    return (
      <>
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="您还未进行资质认证，认证通过后才能发送短信"
        />
        <CertificationForm mode="add" defaultType={defaultType} onSubmitted={submitted} />
      </>
    );
  }
  if (status === OauthStatus.Rejected) {
    return (
      <>
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="rejected-reason"
          message="认证不通过，请修改资料后重新提交"
          description={
            data.remark ? `${fieldLabel('entities/certification-info', 'remark')}：${data.remark}` : undefined
          }
        />
        <CertificationForm mode="edit" initial={data} defaultType={defaultType} onSubmitted={submitted} />
      </>
    );
  }
  return <CertificationView info={data} />;
}

export default function CertificationPage() {
  const [params] = useSearchParams();
  const clientId = params.get('clientId') ?? params.get('clientid');
  if (clientId) return <ClientCertification clientId={clientId} />;
  return <OwnCertification />;
}

/** /account/info/base/auth/re */
export function ReCertificationPage() {
  return <OwnCertification re />;
}
