/**
 * The numbers of an ordinary send (普通短信发送): typed into the box (normalised as typed, counted
 * total / valid / invalid / repeat, 确认号码, 清空号码, the number templates, 运营商检测) or a number
 * file of any size (ChunkedUpload → POST /send/parsefile; the send then carries its importFilePath
 * and the server reads the numbers from the file). `useDomesticNumbers` holds them, the page reads
 * what to send from it (`mobiles`, `imported`, `count`).
 */
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Alert, App, Button, Dropdown, Flex, Form, Input, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import { checkCarriers, downloadPosted, NUMBER_TEMPLATES, SEND_MESSAGES, type CarrierCheck } from '@/domain/send';
import { ApiError } from '@/providers/http';
import { NUMBER_FILE_ACCEPT, NUMBER_FILE_MAX_BYTES, parseFile, type FileParse } from '@/domain/files';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { openDownload } from '@/lib/download';
import { MAX_NUMBERS } from '../../../common/sms/numbers';
import { checkNumbers, confirmText, normalizeNumbers, poolProblem } from './numberPool';
import type { FieldStatus } from './useSendForm';
import { MESSAGES } from '../../../common/schema/messages';

export function useDomesticNumbers() {
  const { message, modal } = App.useApp();
  const [text, setText] = useState('');
  /** the parsed number file: while set, the send goes to its numbers (importFilePath) */
  const [imported, setImported] = useState<FileParse | null>(null);
  const [parsing, setParsing] = useState(false);
  /** remounts the upload (its queue item) after a reset */
  const [uploadKey, setUploadKey] = useState(0);
  const [carriers, setCarriers] = useState<CarrierCheck | null>(null);
  const [checking, setChecking] = useState(false);

  // counting 60,000 numbers takes a few ms: typing stays responsive, the counts follow
  const shownText = useDeferredValue(text);
  const shown = useMemo(() => checkNumbers(shownText), [shownText]);
  /** the counts of the box as it is now (the shown ones may lag a keystroke behind) */
  const current = () => (shownText === text ? shown : checkNumbers(text));

  const load = useCallback((raw: string) => setText(normalizeNumbers(raw)), []);
  const type = (raw: string) => {
    setText(normalizeNumbers(raw));
    setCarriers(null);
  };
  const confirm = () => {
    setText(confirmText(text));
    setCarriers(null);
  };
  const clearAll = () =>
    modal.confirm({
      title: '提示',
      content: SEND_MESSAGES.clearConfirm,
      okText: '确定',
      cancelText: '取消',
      onOk: () => {
        setText('');
        setImported(null);
        setCarriers(null);
      },
    });
  const importFile = async (file: UploadedFile) => {
    setParsing(true);
    try {
      const body = await parseFile(file.importFilePath);
      setImported(body.data ?? null);
      setCarriers(null);
    } catch {
      /* toasted: 文件解析失败, 文件解析超时, ... */
    } finally {
      setParsing(false);
    }
  };
  const removeFile = () => {
    setImported(null);
    setCarriers(null);
  };
  const carrierCheck = async () => {
    if (imported) {
      setCarriers({ mobileNum: imported.mobileNum, unicomNum: imported.unicomNum, telecomNum: imported.telecomNum });
      return;
    }
    const now = current();
    const err = poolProblem(now);
    if (err) {
      message.error(err);
      return;
    }
    setChecking(true);
    try {
      const body = await checkCarriers(now.unique.join(','));
      setCarriers(body.data ?? null);
    } catch {
      /* toasted */
    } finally {
      setChecking(false);
    }
  };
  /**
   * 导出错误号码 (POST /send/importRrrorPhones): the typed numbers that are not valid mobiles, or the
   * imported file's wrong numbers, as 错误号码.txt; 无手动输入的号码 when there is nothing to check.
   */
  const [exporting, setExporting] = useState(false);
  const exportErrors = async () => {
    if (!imported && !text.trim()) {
      message.warning(SEND_MESSAGES.noManualNumbers);
      return;
    }
    setExporting(true);
    try {
      await downloadPosted(
        '/send/importRrrorPhones',
        imported ? { importFilePath: imported.importFilePath } : { phones: text },
        '错误号码.txt',
      );
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
    } finally {
      setExporting(false);
    }
  };
  const reset = () => {
    setText('');
    setImported(null);
    setUploadKey((k) => k + 1);
    setCarriers(null);
  };

  return {
    text,
    /** a re-edited task's numbers */
    load,
    type,
    confirm,
    clearAll,
    importFile,
    removeFile,
    carrierCheck,
    exportErrors,
    exporting,
    reset,
    imported,
    parsing,
    uploadKey,
    carriers,
    checking,
    /** the counts shown */
    shown,
    /** the typed numbers to send (comma list), or undefined when a file is imported */
    mobiles: () => (imported ? undefined : current().unique.join(',')),
    /** the pool's refusal of the typed numbers (none for a file) */
    problem: () => (imported ? null : poolProblem(current())),
    /** the numbers the send goes to */
    count: () => (imported ? imported.sendNum : current().unique.length),
  };
}

export type DomesticNumbersState = ReturnType<typeof useDomesticNumbers>;

/** invalid numbers listed under the box (all of them are in the export) */
const INVALID_SHOWN = 20;

export function DomesticNumbers({
  box,
  status,
  onTyped,
}: {
  box: DomesticNumbersState;
  status: FieldStatus;
  onTyped: () => void;
}) {
  const { shown: check, imported, carriers } = box;
  return (
    <Form.Item label="手机号码" required {...status}>
      {/* one column: the import's file card, the buttons and the box stay in the field's column */}
      <Flex vertical gap={8} style={{ width: '100%', minWidth: 0 }} data-testid="numbers-field">
        <div style={{ minWidth: 0 }}>
          <ChunkedUpload
            key={box.uploadKey}
            accept={NUMBER_FILE_ACCEPT}
            maxSize={NUMBER_FILE_MAX_BYTES}
            buttonText="导入号码"
            onDone={(file) => void box.importFile(file)}
            onRemove={box.removeFile}
          />
        </div>
        <Space wrap>
          <Dropdown
            menu={{
              items: NUMBER_TEMPLATES.map((t) => ({ key: t.key, label: t.label, onClick: () => openDownload(t.url) })),
            }}
          >
            <Button icon={<DownloadOutlined />}>下载模板</Button>
          </Dropdown>
          <Button
            icon={<FileSearchOutlined />}
            loading={box.checking}
            onClick={box.carrierCheck}
            data-testid="carrier-check"
          >
            {box.checking ? MESSAGES.statusChecking : '运营商检测'}
          </Button>
          <Button onClick={box.confirm} disabled={!box.text} data-testid="confirm-numbers">
            确认号码
          </Button>
          <Button danger onClick={box.clearAll} disabled={!box.text}>
            清空号码
          </Button>
        </Space>
        <Input.TextArea
          value={box.text}
          onChange={(e) => {
            box.type(e.target.value);
            onTyped();
          }}
          disabled={!!imported}
          rows={8}
          placeholder="请输入手机号码，多个号码以逗号或换行分隔，最多60000个"
          data-testid="numbers-input"
        />
        {!imported && (
          <Space wrap data-testid="number-counts">
            <span>
              号码总数：<b data-testid="count-total">{check.total}</b>
            </span>
            <span>
              有效号码：<b data-testid="count-valid">{check.valid}</b>
            </span>
            <span>
              无效号码：
              <b style={{ color: check.invalid ? '#cf1322' : undefined }} data-testid="count-invalid">
                {check.invalid}
              </b>
            </span>
            <span>
              重复号码：<b data-testid="count-repeat">{check.repeat}</b>
            </span>
            <Typography.Text type="secondary">（有效号码已去重，即发送与计费的号码数）</Typography.Text>
          </Space>
        )}
        {!imported && check.invalid > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="invalid-numbers"
            message={`${check.invalid} 个无效号码不会发送，点击“确认号码”可将其从号码框中清除`}
            description={
              <Flex wrap gap={4}>
                {check.invalidNumbers.slice(0, INVALID_SHOWN).map((n, i) => (
                  <Tag key={`${i}-${n}`} color="red" style={{ marginInlineEnd: 0 }}>
                    {n}
                  </Tag>
                ))}
                {check.invalid > INVALID_SHOWN && (
                  <Typography.Text type="secondary">等 {check.invalid} 个</Typography.Text>
                )}
              </Flex>
            }
            action={
              <Button
                size="small"
                icon={<DownloadOutlined />}
                loading={box.exporting}
                onClick={() => void box.exportErrors()}
                data-testid="export-invalid"
              >
                导出错误号码
              </Button>
            }
          />
        )}
        {check.total > MAX_NUMBERS && (
          <Alert type="error" showIcon message={poolProblem(check)} data-testid="too-many" />
        )}
        {box.parsing && (
          <Alert
            type="info"
            showIcon
            message={`${MESSAGES.statusRecognizing}，${MESSAGES.statusLargeData}…`}
            data-testid="import-parsing"
          />
        )}
        {imported && (
          <Alert
            type="info"
            showIcon
            data-testid="import-result"
            message={`已导入 ${imported.fileName}：共 ${imported.submitTotal} 个号码，错误 ${imported.errNum} 个，重复 ${imported.repeatNum} 个，可发送 ${imported.sendNum} 个（移动 ${imported.mobileNum}，联通 ${imported.unicomNum}，电信 ${imported.telecomNum}）`}
            description="发送时使用文件中的有效号码；移除文件后可手动输入号码"
            action={
              imported.errNum > 0 ? (
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  loading={box.exporting}
                  onClick={() => void box.exportErrors()}
                  data-testid="export-file-errors"
                >
                  下载错误号码
                </Button>
              ) : undefined
            }
          />
        )}
        {carriers && (
          <Space wrap data-testid="carrier-counts">
            <Tag color="green">移动 {carriers.mobileNum}</Tag>
            <Tag color="red">联通 {carriers.unicomNum}</Tag>
            <Tag color="blue">电信 {carriers.telecomNum}</Tag>
          </Space>
        )}
      </Flex>
    </Form.Item>
  );
}
