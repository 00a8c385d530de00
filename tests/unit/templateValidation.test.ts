import { describe, expect, it } from 'vitest';
import { validateTemplate } from '@/resources/templates/validation';

const base = { smsType: 10, templateType: 0, business: 0, smstype: 4, sign: '', content: '' };

describe("template form checks in the console (the server's schema and rules)", () => {
  it("gives the schema's messages, the sub-account first for agents", () => {
    expect(validateTemplate(base, { agent: true, operationMode: '1' })).toEqual([
      { field: 'clientId', message: '请选择子账号' },
      { field: 'sign', message: '签名长度为2-12之间' },
      { field: 'content', message: '模板内容长度为5-500个字符' },
    ]);
  });

  it('applies the variable and SMS-type rules', () => {
    const ok = { ...base, clientId: 'b1', sign: '优品商城' };
    expect(validateTemplate({ ...ok, content: '您好{name}，欢迎光临' }, { agent: true, operationMode: '1' })).toEqual([
      { field: 'content', message: '固定模板不能包含变量' },
    ]);
    expect(
      validateTemplate(
        { ...ok, templateType: 1, content: '您好，欢迎光临本店' },
        { agent: true, operationMode: '1' },
      )[0].message,
    ).toBe('变量模板至少需要包含一个变量，变量格式为{变量名}');
    expect(
      validateTemplate({ ...ok, smstype: 5, content: '您好，欢迎光临本店' }, { agent: true, operationMode: '1' })[0]
        .message,
    ).toBe('行业模板的短信类型只能选择验证码或通知');
    expect(
      validateTemplate(
        { ...ok, smstype: undefined, content: '您好，欢迎光临本店' },
        { agent: false, operationMode: '0' },
      ),
    ).toEqual([]);
    expect(
      validateTemplate({ ...ok, sign: '  优品  ', content: '您好，欢迎光临本店' }, { agent: true, operationMode: '1' }),
    ).toEqual([]);
  });
});
