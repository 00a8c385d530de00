/**
 * A pending row's 通过 / 驳回 (certifications, signs, templates). 通过 asks first, then shows the
 * server's answer (a refusal is toasted: 已审核（who） when another operator took it). 驳回 opens
 * RejectDialog: the reason is required, at most 200 characters (forms/review-reject.json), the
 * account sees it; the server's refusal stays in the dialog. Either way the list and the menu's
 * counts refresh (`done`).
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import reviewRejectForm from '@/generated/forms/review-reject';
import type { ReviewRejectForm } from '@/generated/schemas';
import { SchemaFormDialog } from '@/components/SchemaForm/SchemaFormDialog';
import { schemaUi } from '@/schema';
import { reviewApi } from './api';
import type { ReviewResource } from './data';

export interface DecisionActionsProps {
  resource: ReviewResource;
  id: number;
  /** what is reviewed, for the questions ("签名【云讯通】") */
  what: string;
  /** shown above the reason (the row's essentials) */
  summary?: ReactNode;
  pending: boolean;
  done: () => void;
}

export function DecisionActions({ resource, id, what, summary, pending, done }: DecisionActionsProps) {
  const { message } = App.useApp();
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  if (!pending) return <Typography.Text type="secondary">-</Typography.Text>;

  const approve = async () => {
    setApproving(true);
    try {
      const msg = await reviewApi.approve(resource, id);
      if (msg) message.success(msg);
    } catch {
      // toasted by the HTTP client
    } finally {
      setApproving(false);
      done();
    }
  };

  return (
    <>
      <Space size={0}>
        <Popconfirm title={`确定通过${what}吗？`} okText="通过" cancelText="取消" onConfirm={approve}>
          <Button type="link" size="small" icon={<CheckOutlined />} loading={approving}>
            通过
          </Button>
        </Popconfirm>
        <Button type="link" size="small" danger icon={<CloseOutlined />} onClick={() => setRejecting(true)}>
          驳回
        </Button>
      </Space>
      <RejectDialog
        open={rejecting}
        resource={resource}
        id={id}
        what={what}
        summary={summary}
        onClose={() => setRejecting(false)}
        done={done}
      />
    </>
  );
}

export interface RejectDialogProps {
  open: boolean;
  resource: ReviewResource;
  id: number;
  what: string;
  summary?: ReactNode;
  onClose: () => void;
  done: () => void;
}

const rejectUi = schemaUi('forms/review-reject');

export function RejectDialog({ open, resource, id, what, summary, onClose, done }: RejectDialogProps) {
  const save = async (v: ReviewRejectForm) => {
    try {
      return await reviewApi.reject(resource, id, v.reason);
    } finally {
      done();
    }
  };
  return (
    <SchemaFormDialog<ReviewRejectForm>
      open={open}
      title={`驳回${what}`}
      form={reviewRejectForm}
      fields={['reason']}
      uiSchema={rejectUi}
      initial={{}}
      save={save}
      onClose={onClose}
      okText="驳回"
      errorTestId="reject-refusal"
    >
      {summary && <div style={{ marginBottom: 16 }}>{summary}</div>}
    </SchemaFormDialog>
  );
}
