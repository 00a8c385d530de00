/**
 * The numbers of an international send (国际短信发送): typed (digits and commas only; 号码检测 → the
 * country of each number, POST /send/checkMobileInternational) or from a txt / csv / xlsx file
 * (≤ 250M, name ≤ 30; ChunkedUpload → POST /send/parsefileInternational), with the counts and the
 * countries (count × price per piece). `useIntlNumbers` holds them; the page reads what to send
 * (`fields`) and the page rule (`problem`: no international number). Chinese mobiles written
 * with 86 (8613800138000) are not international: a hint points them to the domestic send.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Alert, App, Button, Flex, Form, Input, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import { downloadPosted, SEND_MESSAGES } from '@/domain/send';
import { ChunkedUpload, type UploadedFile } from '@/components/ChunkedUpload';
import { NumberInputMode } from '@/generated/schemas';
import { ApiError } from '@/providers/http';
import {
  checkInternational,
  INTL_FILE,
  INTL_MESSAGES,
  intlNumbersOnly,
  parseInternationalFile,
  type IntlCheck,
} from './api';
import { CountryTable } from './CountryTable';
import { NumberSource, type NumberMode } from './NumberSource';
import type { FieldStatus } from './useSendForm';
import { MESSAGES } from '../../../common/schema/messages';
import { domesticMobileOf, splitNumbers } from '../../../common/sms/numbers';
import { useCurrentUser } from '@/layout/hooks';
import { rules } from '@/providers/access';
import { useScreen, useScreenPath } from '@/layout/screens';

export interface NumberErrors {
  /** show a problem on the numbers */
  fail: (msg: string) => void;
  /** the numbers' problem is gone */
  clear: () => void;
}

export function useIntlNumbers({ fail, clear }: NumberErrors) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<NumberMode>(NumberInputMode.Manual);
  const [text, setText] = useState('');
  const [checked, setChecked] = useState<IntlCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [file, setFile] = useState<{ importFilePath: string; fileName: string; parsed: IntlCheck } | null>(null);
  const [uploading, setUploading] = useState(false);
  const typed = mode === NumberInputMode.Manual;

  const type = (raw: string) => {
    setText(intlNumbersOnly(raw));
    setChecked(null);
    clear();
  };
  const check = async () => {
    if (!text.replace(/,/g, '')) return fail(INTL_MESSAGES.noNumbers);
    setChecking(true);
    try {
      setChecked((await checkInternational(text)).data);
    } catch {
      setChecked(null);
    } finally {
      setChecking(false);
    }
  };
  /** the chunked upload is done: the numbers of the file and their countries */
  const parseUploaded = async (up: UploadedFile) => {
    setUploading(true);
    try {
      const parsed = (await parseInternationalFile({ importFilePath: up.importFilePath, fileName: up.fileName })).data;
      setFile({ importFilePath: up.importFilePath, fileName: up.fileName, parsed });
      clear();
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '文件解析失败');
      setFile(null);
    } finally {
      setUploading(false);
    }
  };

  // typed numbers that are Chinese mobiles written internationally (8613800138000): shown at once,
  // pointed to the domestic send (issue 41 item 2); a file's come with its check (domesticNum)
  const typedDomestic = useMemo(
    () => (typed ? splitNumbers(text).filter((t) => domesticMobileOf(t) !== null) : []),
    [typed, text],
  );
  const domestic: DomesticNumbers = typed
    ? { count: typedDomestic.length, numbers: typedDomestic }
    : { count: file?.parsed.domesticNum ?? 0, numbers: file?.parsed.domesticSet ?? [] };

  return {
    mode,
    setMode,
    text,
    domestic,
    type,
    check,
    checking,
    checked,
    file,
    removeFile: () => setFile(null),
    parseUploaded,
    uploading,
    /** the counts and countries shown */
    shown: typed ? checked : file?.parsed,
    /** the form's number fields of the send */
    fields: () => ({
      fileType: mode,
      ...(typed ? { mobile: text } : { importFilePath: file?.importFilePath, fileName: file?.fileName }),
    }),
    /** no international number to send to */
    problem: () =>
      (typed ? !/[0-9]/.test(text) || checked?.internationalPhoneNum === 0 : !file) ? INTL_MESSAGES.noNumbers : null,
    /** 错误号码.txt of the typed numbers (POST /send/importRrrorPhones, international rules) */
    exportErrors: async () => {
      try {
        await downloadPosted('/send/importRrrorPhones', { phones: text, international: 1 }, '错误号码.txt');
      } catch (e) {
        message.error(e instanceof ApiError ? e.message : SEND_MESSAGES.noData);
      }
    },
    /** after a send */
    reset: () => {
      setText('');
      setChecked(null);
      setFile(null);
    },
  };
}

/** Chinese mobiles among the international numbers (86 / 0086 + 11 digits) */
export interface DomesticNumbers {
  count: number;
  /** as typed (or the first of a file's) */
  numbers: string[];
}

/** domestic numbers listed in the hint (all of them are counted) */
const DOMESTIC_SHOWN = 10;

/**
 * 8613800138000 is China's: international SMS does not go there. The hint says so, lists them as
 * the domestic send takes them (13800138000) and leads to 普通短信发送 (国内短信) when the account may
 * send domestic SMS.
 */
export function DomesticHint({ domestic }: { domestic: DomesticNumbers }) {
  const { user } = useCurrentUser();
  const deliverScreen = useScreen('sms_deliver');
  const deliverPath = useScreenPath('sms_deliver');
  if (!domestic.count) return null;
  const mayDomestic = !!user && rules.domesticSending(user);
  const shown = domestic.numbers.slice(0, DOMESTIC_SHOWN).map((n) => domesticMobileOf(n) ?? n);
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="intl-domestic-hint"
      message={`${domestic.count} 个号码是中国大陆手机号码（86 开头），国际短信不发送到中国大陆，这些号码不会发送${mayDomestic ? '，请使用国内短信发送' : ''}`}
      description={
        <Flex wrap gap={4} align="center">
          {shown.map((n, i) => (
            <Tag key={`${i}-${n}`} style={{ marginInlineEnd: 0 }}>
              {n}
            </Tag>
          ))}
          {domestic.count > shown.length && <Typography.Text type="secondary">等 {domestic.count} 个</Typography.Text>}
        </Flex>
      }
      action={
        mayDomestic ? (
          <Link to={deliverPath} data-testid="intl-go-domestic">
            去{deliverScreen.label}
          </Link>
        ) : undefined
      }
    />
  );
}

/** rejected numbers listed after a check (all of them are in the export) */
const REJECTED_SHOWN = 20;

export type IntlNumbersState = ReturnType<typeof useIntlNumbers>;

/** the error numbers that are not Chinese mobiles */
const rejectedCount = (c: IntlCheck) => c.parseMobilesInfo.errNum - (c.domesticNum ?? 0);

export function IntlNumbers({ box, status }: { box: IntlNumbersState; status: FieldStatus }) {
  const { checked, file, shown } = box;
  return (
    <>
      <NumberSource
        value={box.mode}
        onChange={box.setMode}
        fileLabel="导入文件"
        typed={
          <Form.Item label="国际号码" required {...status}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                value={box.text}
                onChange={(e) => box.type(e.target.value)}
                rows={6}
                placeholder="请输入国际号码（国际区号 + 号码，如 14155552671），多个号码以逗号分隔"
                data-testid="intl-numbers"
              />
              <Button icon={<FileSearchOutlined />} loading={box.checking} onClick={box.check} data-testid="check-intl">
                号码检测
              </Button>
              <DomesticHint domestic={box.domestic} />
            </Space>
          </Form.Item>
        }
        file={
          <Form.Item label="国际号码" required {...status}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <ChunkedUpload
                  accept={['.txt', '.csv', '.xlsx']}
                  maxSize={INTL_FILE.maxBytes}
                  maxNameLength={INTL_FILE.nameMax}
                  messages={{
                    badType: INTL_MESSAGES.fileBadType,
                    tooLarge: INTL_MESSAGES.fileTooLarge,
                    nameTooLong: INTL_MESSAGES.fileNameTooLong,
                  }}
                  onDone={box.parseUploaded}
                  onRemove={box.removeFile}
                />
                <Typography.Text type="secondary">
                  支持 txt、csv、xlsx，单个文件不超过250M，文件名不超过30个字符
                </Typography.Text>
              </Space>
              {box.uploading && (
                <Typography.Text type="secondary">{`${MESSAGES.statusRecognizing}，${MESSAGES.statusLargeData}…`}</Typography.Text>
              )}
              {file && (
                <Alert
                  type="info"
                  showIcon
                  data-testid="intl-file-result"
                  message={`${file.fileName}：有效号码 ${file.parsed.internationalPhoneNum} 个，错误 ${file.parsed.parseMobilesInfo.errNum} 个，重复 ${file.parsed.parseMobilesInfo.repeatNum} 个`}
                />
              )}
              <DomesticHint domestic={box.domestic} />
            </Space>
          </Form.Item>
        }
      />
      {shown && (
        <Form.Item colon={false} label=" ">
          {box.mode === NumberInputMode.Manual && checked && (
            <Typography.Paragraph data-testid="intl-counts">
              号码总数 {checked.parseMobilesInfo.submitTotal}，有效 {checked.internationalPhoneNum}，错误{' '}
              {checked.parseMobilesInfo.errNum}，重复 {checked.parseMobilesInfo.repeatNum}
            </Typography.Paragraph>
          )}
          {box.mode === NumberInputMode.Manual && checked && checked.errorSet.length > 0 && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="intl-rejected"
              // the Chinese mobiles among the errors have their own hint (DomesticHint)
              message={`${rejectedCount(checked)} 个号码不是有效的国际号码（国际区号 + 号码，6-15 位数字），不会发送`}
              description={
                <Flex wrap gap={4}>
                  {checked.errorSet.slice(0, REJECTED_SHOWN).map((n, i) => (
                    <Tag key={`${i}-${n}`} color="red" style={{ marginInlineEnd: 0 }}>
                      {n}
                    </Tag>
                  ))}
                  {rejectedCount(checked) > REJECTED_SHOWN && (
                    <Typography.Text type="secondary">等 {rejectedCount(checked)} 个</Typography.Text>
                  )}
                </Flex>
              }
              action={
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  onClick={() => void box.exportErrors()}
                  data-testid="intl-export-rejected"
                >
                  导出错误号码
                </Button>
              }
            />
          )}
          <CountryTable countries={shown.countries} />
        </Form.Item>
      )}
    </>
  );
}
