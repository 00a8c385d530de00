/**
 * The state and checks of a send page (普通 / 变量 / 国际短信发送), so that each page only lays out its
 * pieces:
 *
 * - `values`: the page's fields (each page its own shape, always with `sendType` and `sendtime`),
 *   `set` / `patch` / `replace` / `reset`; setting a field clears its error;
 * - `errors` one message per page field, `item(k)` the <Form.Item> status of a field;
 * - `validate(data, extra)`: `data` (what would be sent) checked against the page's compiled form
 *   schema (schemas/forms/send*.json, src/generated/forms: the server's rules and messages), the schema
 *   fields put on the page's fields (`shownAs`), then the page's own checks (`extra`: rules that
 *   need more than the values, e.g. the number pool or a parsed file) and, for a scheduled send,
 *   the time rule of common/send (`timeKind`); it returns the first message in the page's order;
 * - the submit lock (3 s), the charge confirmation (`charge`, `prepare`), `sending`, and after a
 *   send the message and the list that opens (`done`), the credit confirmation of a timed send
 *   (`askCredit`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { App } from 'antd';
import { useNavigate } from 'react-router';
import { SendTimeType } from '@/generated/schemas';
import { checkCompiled, type CompiledForm } from '@/components/SchemaForm/compiled';
import {
  OPEN_TASKS_AFTER_MS,
  SEND_MESSAGES,
  SEND_TIME_FORMAT,
  SUBMIT_LOCK_MS,
  sendTimeProblem,
  type SendTimeKind,
} from '@/domain/send';
import { trimBySchema } from '../../../common/schema/trim';
import type { ChargeFigures } from './ChargeDialog';

/** The status props of a <Form.Item> (its error). */
export type FieldStatus = { validateStatus?: 'error'; help?: string };

/** What every send page holds: when it goes. */
export interface SendTimeValues {
  sendType: number;
  sendtime: Dayjs;
}

export interface SendFormOptions<V extends SendTimeValues, K extends string> {
  /** the page's form schema, compiled (src/generated/forms/send*.js) */
  form: CompiledForm;
  /** the blank page */
  initial: () => V;
  /** the page's fields that show an error, in the page's order (the first error is the one reported); include 'sendtime' */
  fields: readonly K[];
  /** schema fields whose errors show on another page field (e.g. importFilePath on the file) */
  shownAs?: Partial<Record<string, K>>;
  /** which time window a scheduled send has (common/send) */
  timeKind: SendTimeKind;
}

/**
 * The compiled form's check of the values, as validateForm (SchemaForm/validation) does it for a
 * compiled form — null and undefined values left out, `x-trim` fields trimmed — without loading
 * that module, which builds an ajv compiler for run-time schemas when it loads.
 */
export function checkForm(form: CompiledForm, values: Record<string, unknown>) {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));
  return checkCompiled(form, trimBySchema(form.schema, present));
}

export type Problems<K extends string> = Partial<Record<K, string | null | undefined | false>>;

export function useSendForm<V extends SendTimeValues, K extends string>(opts: SendFormOptions<V, K>) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { form, fields, shownAs, timeKind } = opts;
  const [values, setValues] = useState<V>(opts.initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const [charge, setCharge] = useState<ChargeFigures | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [sending, setSending] = useState(false);
  const lastSubmit = useRef(0);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);
  const initial = useRef(opts.initial).current;

  const clear = useCallback(
    (...ks: K[]) =>
      setErrors((e) => (ks.some((k) => e[k]) ? { ...e, ...Object.fromEntries(ks.map((k) => [k, undefined])) } : e)),
    [],
  );
  const fail = useCallback((k: K, msg: string) => setErrors((e) => ({ ...e, [k]: msg })), []);
  /** one field; its error goes */
  const set = useCallback(<F extends keyof V>(k: F, v: V[F]) => {
    setValues((x) => ({ ...x, [k]: v }));
    setErrors((e) => (e[k as unknown as K] ? { ...e, [k]: undefined } : e));
  }, []);
  /** several fields (or a function of the current values); the errors of `clearing` go */
  const patch = useCallback(
    (p: Partial<V> | ((x: V) => Partial<V>), ...clearing: K[]) => {
      setValues((x) => ({ ...x, ...(typeof p === 'function' ? p(x) : p) }));
      if (clearing.length) clear(...clearing);
    },
    [clear],
  );
  /** back to the blank page, keeping `keep` */
  const reset = useCallback(
    (...keep: (keyof V)[]) => setValues((x) => ({ ...initial(), ...Object.fromEntries(keep.map((k) => [k, x[k]])) })),
    [initial],
  );

  const item = (k: K): FieldStatus => (errors[k] ? { validateStatus: 'error', help: errors[k] } : {});
  const scheduled = values.sendType === SendTimeType.Scheduled;
  /** the scheduled time as sent and shown, or undefined for a send now */
  const sendtimeText = scheduled ? values.sendtime.format(SEND_TIME_FORMAT) : undefined;

  /**
   * The form's schema on `data`, then the page's own problems (`extra`, which win on their field),
   * then the time rule of a scheduled send. Shows the errors; returns the first message (page
   * order), or null when the page may go on.
   */
  const validate = (data: Record<string, unknown>, extra: Problems<K> = {}): string | null => {
    const found: Partial<Record<K, string>> = {};
    for (const e of checkForm(form, data)) {
      const k = (shownAs?.[e.field] ?? e.field) as K;
      if (fields.includes(k) && !(k in found)) found[k] = e.message;
    }
    for (const [k, msg] of Object.entries(extra) as [K, string | null | undefined | false][]) if (msg) found[k] = msg;
    if (scheduled) {
      const t = sendTimeProblem(values.sendtime, undefined, timeKind);
      if (t) found['sendtime' as K] = t;
    }
    setErrors(found);
    const first = fields.find((k) => found[k]);
    return first ? found[first]! : null;
  };

  /** The submit lock (spec 02 §9: one submit in 3 s): true (and the warning) when a submit came too soon; else the submit is recorded. */
  const submitLocked = (): boolean => {
    const now = Date.now();
    if (now - lastSubmit.current < SUBMIT_LOCK_MS) {
      message.warning(SEND_MESSAGES.submitLock);
      return true;
    }
    lastSubmit.current = now;
    return false;
  };

  /** The charge confirmation: `load` gives its figures (a refusal was shown by the http layer). */
  const prepare = async (load: () => Promise<ChargeFigures | null | undefined>) => {
    setPreparing(true);
    try {
      const figures = await load();
      if (figures) setCharge(figures);
    } catch {
      /* the client showed the server's message */
    } finally {
      setPreparing(false);
    }
  };

  /** After a send: the dialog closes, the message, and `path` (the task list) opens, after about 1 s unless `now`. */
  const done = (msg: string | undefined, path: string, opts: { now?: boolean } = {}) => {
    setCharge(null);
    message.success(msg || SEND_MESSAGES.sent);
    if (opts.now) void navigate(path);
    else timers.current.push(window.setTimeout(() => void navigate(path), OPEN_TASKS_AFTER_MS));
  };

  /** A timed send refused for credit (code 403): the server's message, and on confirm `again` (without the credit check). */
  const askCredit = (content: string, again: () => unknown) =>
    modal.confirm({ title: '提示', content, okText: '确定', cancelText: '取消', onOk: () => again() });

  return {
    values,
    set,
    patch,
    replace: setValues,
    reset,
    errors,
    clear,
    fail,
    item,
    validate,
    scheduled,
    sendtimeText,
    submitLocked,
    charge,
    setCharge,
    prepare,
    preparing,
    sending,
    setSending,
    done,
    askCredit,
  };
}

export type SendFormState<V extends SendTimeValues, K extends string> = ReturnType<typeof useSendForm<V, K>>;
