/**
 * Test accounts in 子账户管理 (docs/api-subaccounts.md "Test accounts"): 创建测试账户 when
 * `canCreateTestAccount` of GET /index/data says so — a confirmation stating what a test account
 * may do (the terms from /index/data, texts from schemas/messages), the form of
 * schemas/forms/test-account, the new account's login name and password shown once — and
 * 转为正式账户 on a test account's row (the list's `test_expire_time`).
 */
import { useState } from 'react';
import { Alert, App, Button, Modal, Typography } from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { SchemaDescriptions } from '@/components/SchemaDescriptions';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import testAccountForm from '@/generated/forms/test-account';
import type { TestAccountCreated, TestAccountForm } from '@/generated/schemas';
import type { IndexData, TestAccountTerms } from '@/pages/dashboard/api';
import { subAccountApi } from './api';
import { copyText } from './dialogs';
import { MESSAGES, type MessageKey } from '../../../common/schema/messages';

/** `{name}` placeholders of a message filled from `values` */
export const fillMessage = (key: MessageKey, values: Record<string, string | number>) =>
  MESSAGES[key].replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

/** the lines of the confirmation, in order */
export function testAccountTerms(terms: TestAccountTerms, mobile?: string): string[] {
  const values = { ...terms, mobile: mobile ? `（${mobile}）` : '' };
  return (
    [
      'testAccountTermGift',
      'testAccountTermRecipients',
      'testAccountTermExpiry',
      'testAccountTermMoney',
      'testAccountTermLimit',
    ] as const
  ).map((k) => fillMessage(k, values));
}

/** `canCreateTestAccount` and the terms from GET /index/data (the same call as the home page's header) */
export function useTestAccountGate(enabled: boolean) {
  const { result } = useCustom<IndexData>({
    url: '/index/data',
    method: 'get',
    meta: { silent: true },
    queryOptions: { enabled },
  });
  const d = result.data as IndexData | undefined;
  return { allowed: enabled && d?.canCreateTestAccount === true, terms: d?.testAccountTerms };
}

export function CreateTestAccountButton({
  terms,
  mobile,
  onCreated,
}: {
  terms?: TestAccountTerms;
  mobile?: string;
  onCreated: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<TestAccountCreated>();
  return (
    <>
      <Button icon={<ExperimentOutlined />} onClick={() => setOpen(true)} data-testid="create-test-account">
        创建测试账户
      </Button>
      <SchemaFormDialog<TestAccountForm>
        open={open}
        title="创建测试账户"
        form={testAccountForm}
        fields={['name', 'remarks']}
        uiSchema={{ remarks: { 'ui:widget': 'textarea', 'ui:options': { rows: 2 } } }}
        initial={{}}
        save={async (v) => {
          const body = await subAccountApi.createTestAccount({ name: v.name, remarks: v.remarks ?? '' });
          setCreated(body.data);
          return body.msg ?? MESSAGES.testAccountCreated;
        }}
        onClose={() => setOpen(false)}
        onDone={onCreated}
        errorTestId="test-account-error"
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="测试账户用于试用平台，创建后："
          data-testid="test-account-terms"
          description={
            terms ? (
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {testAccountTerms(terms, mobile).map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            ) : (
              MESSAGES.testAccountTermMoney
            )
          }
        />
      </SchemaFormDialog>
      <TestAccountCreatedDialog created={created} onClose={() => setCreated(undefined)} />
    </>
  );
}

/** the new account's login name and password, shown this once */
function TestAccountCreatedDialog({ created, onClose }: { created?: TestAccountCreated; onClose: () => void }) {
  const { message } = App.useApp();
  return (
    <Modal
      open={!!created}
      title={MESSAGES.testAccountCreated}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button
          key="copy"
          onClick={async () =>
            created &&
            ((await copyText(`账户：${created.clientid}\n密码：${created.password}`))
              ? message.success('复制成功')
              : message.error('复制失败，您的浏览器不支持自动复制，请手动复制'))
          }
        >
          复制账户信息
        </Button>,
        <Button key="ok" type="primary" onClick={onClose}>
          我已保存
        </Button>,
      ]}
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={MESSAGES.passwordShownOnce} />
      {created && (
        <SchemaDescriptions
          entity="entities/test-account-created"
          record={created}
          size="small"
          data-testid="test-account-created"
          render={{
            password: (v) => (
              <Typography.Text copyable code data-testid="test-account-password">
                {v}
              </Typography.Text>
            ),
          }}
        />
      )}
    </Modal>
  );
}
