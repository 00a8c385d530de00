/**
 * Invoice commands: `invoices [status]` lists applications, `invoice-status <id> <status> [--reason ..]
 * [--express-company ..] [--express-no ..]` moves one along the allowed transitions
 * (server/modules/invoice/service.ts TRANSITIONS; docs/api-invoice.md).
 */
import { formatDateTime } from '../lib/time';
import { InvoiceStatus } from '../../common/generated/schemas';
import { InvoiceStatusError, setInvoiceStatus } from '../modules/invoice';
import { CommandError, defineCommands, table, UsageError } from './registry';
import statusEnum from '../../schemas/enums/invoice-status.json';
import typeEnum from '../../schemas/enums/invoice-type.json';

const STATUS = new Map<number, string>(statusEnum.oneOf.map((o) => [o.const, o.title]));
const TYPE = new Map<number, string>(typeEnum.oneOf.map((o) => [o.const, o.title]));

/** '0' … '5': one of enums/invoice-status */
const statusArg = (v: string | undefined): InvoiceStatus => {
  const status = Object.values(InvoiceStatus).find((s) => String(s) === v);
  if (status === undefined)
    throw new UsageError(`状态须为 0-5：${[...STATUS].map(([k, t]) => `${k} ${t}`).join('，')}`);
  return status;
};

/** `--name value` options after the positional arguments. */
function options(args: string[], names: string[]): { positional: string[]; opts: Record<string, string> } {
  const positional: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (!names.includes(name)) throw new UsageError(`未知选项: ${a}`);
      if (i + 1 >= args.length) throw new UsageError(`选项 ${a} 缺少值`);
      opts[name] = args[++i];
    } else positional.push(a);
  }
  return { positional, opts };
}

export const invoiceCommands = defineCommands(
  {
    name: 'invoices',
    usage: 'invoices [status]',
    description: '发票申请列表（可按状态 0-5 筛选，最近 200 条）',
    async run({ db, out }, [status]) {
      let q = db
        .selectFrom('invoices as i')
        .innerJoin('accounts as a', 'a.id', 'i.account_id')
        .select([
          'i.id',
          'i.invoice_no',
          'a.clientid',
          'i.invoice_type',
          'i.invoice_amount',
          'i.invoice_head',
          'i.status',
          'i.create_time',
          'i.audit_fail_cause',
          'i.express_company',
          'i.express_order',
        ])
        .orderBy('i.id', 'desc')
        .limit(200);
      if (status !== undefined) q = q.where('i.status', '=', statusArg(status));
      const rows = await q.execute();
      out(
        table([
          ['编号', '申请编号', '账户', '类型', '金额', '抬头', '状态', '申请时间', '原因/快递'],
          ...rows.map((r) => [
            String(r.id),
            r.invoice_no,
            r.clientid,
            TYPE.get(r.invoice_type) ?? String(r.invoice_type),
            r.invoice_amount,
            r.invoice_head,
            `${r.status} ${STATUS.get(r.status) ?? ''}`,
            formatDateTime(r.create_time),
            [r.audit_fail_cause, [r.express_company, r.express_order].filter(Boolean).join(' ')]
              .filter(Boolean)
              .join(' ') || '-',
          ]),
        ]).join('\n'),
      );
      out(`共 ${rows.length} 条`);
    },
  },
  {
    name: 'invoice-status',
    usage: 'invoice-status <id> <status> [--reason ..] [--express-company ..] [--express-no ..]',
    description:
      '修改发票状态：0→2 驳回（须 --reason）或 3 开票中；3→2 或 4 已邮寄（增值税专票须快递公司和单号）；4→5 已退回',
    async run({ db, out, now }, args) {
      const { positional, opts } = options(args, ['reason', 'express-company', 'express-no']);
      const [idArg, to] = positional;
      if (!idArg || !/^[1-9][0-9]{0,9}$/.test(idArg) || Number(idArg) > 2_147_483_647)
        throw new UsageError('发票编号须为正整数');
      const status = statusArg(to);
      try {
        const r = await setInvoiceStatus({ db, now }, Number(idArg), status, {
          reason: opts.reason,
          expressCompany: opts['express-company'],
          expressNo: opts['express-no'],
        });
        out(`发票 ${idArg}（${r.invoiceNo}）：${STATUS.get(r.from)} → ${STATUS.get(r.to)}`);
      } catch (e) {
        if (e instanceof InvoiceStatusError) throw new CommandError(e.message);
        throw e;
      }
    },
  },
);
