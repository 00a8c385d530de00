import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { cli } from './server';
import { apiLogin, apiPost, login, passSlider } from './helpers';

/**
 * The operator console's 客户 and 运营人员 against the real server (issue 39, docs/api-operator.md
 * "Customers" and "Console"): operator1 (运营) finds client1 in 客户 and freezes it (client1's session
 * ends and its login is refused), unfreezes it, raises agent1's credit (agent1's 自有账单 shows the
 * 提升额度 row with the remark), then logs in as client1 through 以该账户登录 (its reason asked; the
 * accounts' console opens as client1 and the operator's session is over); logged in again, the
 * 审计日志 shows every one of these rows. A 管理员 adds an operator with a second factor in 运营人员
 * (the secret and its QR code shown once), who logs in with a code of that secret, and disables it.
 *
 * Screenshots at 1440 px go to test-results/ops/.
 */

const SHOTS = 'test-results/ops';
// screens reached by a menu click load their chunk and list first: room for a busy two-core machine
const expect = baseExpect.configure({ timeout: 20_000 });

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** An operator's browser at 1440 px, logged in through /login (the slider, then /ops). */
async function operatorPage(browser: Browser, name: string, password = 'Demo1234') {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await login(page, name, password);
  await expect(page).toHaveURL(/\/ops$/, { timeout: 30_000 });
  await expect(page.getByTestId('operator')).toContainText(name, { timeout: 30_000 });
  return page;
}

/** the side menu's entry */
const menuEntry = (page: Page, label: string) =>
  page.getByRole('menu', { name: '主菜单' }).getByRole('menuitem', { name: new RegExp(`(^| )${label}( \\d+)?$`) });

/** 客户 searched for one account: its row (the 账户 cell, not an agent's sub-accounts) */
async function customerRow(page: Page, clientid: string) {
  const search = page.getByPlaceholder('账户/名称/手机/邮箱');
  await search.fill(clientid);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(new RegExp(`search=${clientid}`));
  const row = page
    .locator('.ant-table-tbody')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: clientid, exact: true }) });
  await expect(row).toHaveCount(1);
  return row;
}

test.describe.configure({ mode: 'serial' });

test('operator1 freezes and unfreezes client1, raises agent1’s credit, logs in as client1; the 审计日志 shows it all', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = String(Date.now()).slice(-5);
  const freezeRemark = `e2e 投诉核查 ${stamp}`;
  const creditRemark = `e2e 活动补偿 ${stamp}`;
  const reason = `e2e 客户反馈发送失败，核查其设置 ${stamp}`;

  // client1 is logged in elsewhere
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await apiLogin(client, 'client1');
  expect((await (await client.request.get('/api/admin/info')).json()).code).toBe(0);

  const ops = await operatorPage(browser, 'operator1');
  await menuEntry(ops, '客户').click();
  await expect(ops).toHaveURL(/\/ops\/customers/);
  await expect(ops.getByRole('row').filter({ hasText: 'agent1' }).first()).toBeVisible();
  await shot(ops, 'ops-customers');

  // 冻结 with a remark: client1's session ends, its login is refused
  let row = await customerRow(ops, 'client1');
  await expect(row).toContainText('注册完成');
  await row.getByRole('button', { name: '冻结', exact: true }).click();
  const freeze = ops.getByRole('dialog', { name: '冻结账户 client1' });
  await expect(freeze.getByText(/所有登录立即结束/)).toBeVisible();
  await freeze.getByLabel('备注').fill(freezeRemark);
  await shot(ops, 'ops-customers-freeze');
  await freeze.getByRole('button', { name: /冻\s*结/ }).click();
  await expect(ops.getByText('冻结成功', { exact: true })).toBeVisible();
  await expect(freeze).toBeHidden();
  // the list asked again: frozen, 解冻 offered
  await expect(row.getByRole('button', { name: '解冻', exact: true })).toBeVisible();
  await expect(row).not.toContainText('注册完成');
  expect((await (await client.request.get('/api/admin/info')).json()).code).toBe(401);
  await expect(apiLogin(client, 'client1')).rejects.toThrow('账户已冻结，请联系客服');

  // 解冻: client1 may log in again
  await row.getByRole('button', { name: '解冻', exact: true }).click();
  const unfreeze = ops.getByRole('dialog', { name: '解冻账户 client1' });
  await unfreeze.getByLabel('备注').fill(`e2e 核查完毕 ${stamp}`);
  await unfreeze.getByRole('button', { name: /解\s*冻/ }).click();
  await expect(ops.getByText('解冻成功', { exact: true })).toBeVisible();
  await expect(unfreeze).toBeHidden();
  await expect(row).toContainText('注册完成');
  await expect(row.getByRole('button', { name: '冻结', exact: true })).toBeVisible();
  await apiLogin(client, 'client1');
  expect((await (await client.request.get('/api/admin/info')).json()).data.clientid).toBe('client1');
  await clientContext.close();

  // 调整额度 of agent1: asked once more, answered with the new balance
  row = await customerRow(ops, 'agent1');
  await row.getByRole('button', { name: '调整额度' }).click();
  const credit = ops.getByRole('dialog', { name: '调整额度：agent1' });
  await credit.getByLabel('金额（元）').fill('100.50');
  await credit.getByLabel('备注').fill(creditRemark);
  await shot(ops, 'ops-customers-credit');
  await credit.getByRole('button', { name: /确\s*定/ }).click();
  const confirm = ops.getByTestId('credit-confirm');
  await expect(confirm).toHaveText('确定为代理商 agent1 提升额度 100.50 元吗？');
  await ops
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(ops.getByText(/^已记账，当前余额 [\d.]+ 元$/)).toBeVisible();
  await expect(credit).toBeHidden();

  // agent1's credit history (自有账单 › 额度记录): the 提升额度 row with the remark
  const agentContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const agent = await agentContext.newPage();
  await apiLogin(agent, 'agent1');
  await agent.goto('/finance/own');
  await agent.getByRole('tab', { name: '额度记录' }).click();
  const creditRow = agent.getByTestId('credit-history-table').getByRole('row').filter({ hasText: creditRemark });
  await expect(creditRow).toContainText('提升额度', { timeout: 30_000 });
  await expect(creditRow).toContainText('100.50');
  await shot(agent, 'ops-customers-agent-credit-history');
  await agentContext.close();

  // 以该账户登录: the reason, then client1's console in this browser; the operator's session is over
  row = await customerRow(ops, 'client1');
  await row.getByRole('button', { name: /更多/ }).click();
  await ops.getByRole('menuitem', { name: '以该账户登录' }).click();
  const loginAs = ops.getByRole('dialog', { name: '以该账户登录：client1' });
  await expect(loginAs.getByTestId('login-as-note')).toContainText('本浏览器的运营人员登录随即结束');
  await loginAs.getByRole('button', { name: /登\s*录/ }).click();
  await expect(loginAs.getByText('请填写登录原因')).toBeVisible();
  await loginAs.getByLabel('登录原因').fill(reason);
  await shot(ops, 'ops-customers-login-as');
  await loginAs.getByRole('button', { name: /登\s*录/ }).click();
  await expect(ops).toHaveURL(/\/$/, { timeout: 30_000 });
  await expect(ops.getByTestId('account')).toContainText('client1', { timeout: 30_000 });
  await shot(ops, 'ops-customers-login-as-console');
  // the operator console sends the account's session back to its own console
  expect((await apiPost(ops, '/api/operator/customers/list', {})).code).toBe(401);
  await ops.goto('/ops/customers');
  await expect(ops).toHaveURL(/\/$/);
  await expect(ops.getByTestId('account')).toContainText('client1');
  await ops.context().close();

  // operator1 again: the 审计日志 has each of them
  const again = await operatorPage(browser, 'operator1');
  await menuEntry(again, '审计日志').click();
  await expect(again).toHaveURL(/\/ops\/audit/);
  await again.getByPlaceholder('操作人').fill('operator1');
  await again.getByRole('button', { name: /查\s*询/ }).click();
  await expect(again).toHaveURL(/operator=operator1/);
  const audited = (action: string, text: string) =>
    again.getByRole('row').filter({ hasText: action }).filter({ hasText: text });
  await expect(audited('冻结账户', freezeRemark)).toContainText('client1');
  await expect(audited('解冻账户', `e2e 核查完毕 ${stamp}`)).toContainText('client1');
  await expect(audited('调整额度', creditRemark)).toContainText('agent1');
  const loginRow = audited('以账户身份登录', reason);
  await expect(loginRow).toContainText('client1');
  await expect(loginRow).toContainText('账户 #');
  // the freeze's values: the account's status before and after
  const freezeRow = audited('冻结账户', freezeRemark);
  await freezeRow.getByRole('button', { name: /展开行|Expand row/ }).click();
  const state = again.getByTestId('audit-diff').getByRole('row', { name: /^状态/ });
  await expect(state).toContainText('注册完成');
  await expect(state).toContainText('冻结');
  await shot(again, 'ops-customers-audit');
  await again.context().close();
});

test('a 管理员 adds an operator with a second factor (secret and QR once), who logs in with it, then disables it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = String(Date.now()).slice(-4);
  const adminName = `root.admin${suffix}`;
  const name = `new.staff${suffix}`;
  cli('operator-add', adminName, 'Admin1234', '3', '--no-totp');

  const page = await operatorPage(browser, adminName, 'Admin1234');
  await menuEntry(page, '运营人员').click();
  await expect(page).toHaveURL(/\/ops\/operators$/);
  await page.getByRole('button', { name: /新增运营人员/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增运营人员' });
  await dialog.getByLabel('登录名').fill(name);
  await dialog.getByRole('radio', { name: '运营' }).check();
  await dialog.getByRole('checkbox', { name: /动态验证码/ }).check();
  await dialog.getByLabel('密码', { exact: true }).fill('Staff1234');
  await dialog.getByLabel('确认密码').fill('Staff123');
  await dialog.getByRole('button', { name: /新\s*增/ }).click();
  await expect(dialog.getByText('两次输入密码不一致')).toBeVisible();
  await dialog.getByLabel('确认密码').fill('Staff1234');
  await shot(page, 'ops-operators-add');
  await dialog.getByRole('button', { name: /新\s*增/ }).click();

  const result = page.getByTestId('operator-added');
  await expect(result).toContainText('新增成功');
  await expect(result.getByTestId('totp-qrcode').locator('canvas')).toBeVisible();
  const secret = (await result.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(result.getByTestId('totp-uri')).toContainText('otpauth://totp/');
  await shot(page, 'ops-operators-added');
  await page.getByRole('button', { name: '我已保存，关闭' }).click();
  const row = page.locator('.ant-table-tbody').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('运营');
  await expect(row).toContainText('已开启');

  // the new operator logs in with a code of that secret
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const staffContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const staff = await staffContext.newPage();
  await login(staff, name, 'Staff1234');
  await expect(staff.getByRole('alert')).toContainText('请输入动态验证码');
  await staff.getByLabel('动态验证码').fill(totp.generate());
  await expect(staff.getByRole('slider', { name: '滑块验证' })).toHaveAttribute('aria-valuenow', '0');
  await staff.waitForTimeout(600);
  await passSlider(staff);
  await expect(staff).toHaveURL(/\/ops$/, { timeout: 30_000 });
  await expect(staff.getByTestId('operator')).toContainText(name);

  // disabled: its session ends
  await row.getByRole('button', { name: /停\s*用/ }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /停\s*用/ })
    .click();
  await expect(page.getByText('状态已更新', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /启\s*用/ })).toBeVisible();
  expect((await (await staff.request.get('/api/operator/me')).json()).code).toBe(401);
  // disabling oneself: the server's refusal
  const me = page.locator('.ant-table-tbody').getByRole('row').filter({ hasText: adminName });
  await me.getByRole('button', { name: /停\s*用/ }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /停\s*用/ })
    .click();
  await expect(page.getByText('不能停用自己', { exact: true })).toBeVisible();
  await shot(page, 'ops-operators');
  await staffContext.close();
  await page.context().close();
});
