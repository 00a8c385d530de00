/**
 * THE SCREENS OF THE OPERATOR CONSOLE (/ops, issue 39), put together from the folders that declare
 * them, as src/screens.tsx does for the accounts' console: each folder's index.ts (src/ops/<x>/)
 * exports `screens` (path, label, access rule by role, lazy page, menu place, the menu's badge)
 * with the data resources their pages read. The routes (OpsRoutes), the side menu and the route
 * guard (OpsLayout), the home's cards (home/OpsHome), Refine's resources and the data provider's
 * endpoints (providers/ConsoleRefine) read this table; pages never import it (they read their own
 * folder: tests/unit/importBoundaries.test.ts).
 *
 * Access (src/providers/access.ts): `operator` every role (审核员, 运营, 管理员), `operatorAudit`
 * 运营 and 管理员, `operatorAdmin` 管理员; the server's routes declare the same roles.
 * A new folder adds one line below.
 */
import type { ScreenTable } from '@/layout/declarations';
import { OPS_HOME } from '@/providers/sessionKind';
import * as home from './home';
import * as review from './review';
import * as customers from './customers';
import * as audit from './audit';
import * as content from './content';
import * as operators from './operators';
import * as channels from './channels';
import * as monitor from './monitor';
import * as archives from './archives';

export const opsScreens: ScreenTable = {
  home: OPS_HOME,
  groups: [...review.groups, ...content.groups],
  screens: [
    ...home.screens, // 工作台
    ...review.screens, // 审核: 资质认证, 签名, 模板, 发票
    ...customers.screens, // 客户
    ...channels.screens, // 通道
    ...content.screens, // 内容: 敏感词, 平台公告
    ...monitor.screens, // 监控
    ...archives.screens, // 发送记录归档
    ...audit.screens, // 审计日志
    ...operators.screens, // 运营人员
  ],
};
