/** Story data for notices (never imported by the app). */
import type { Notice } from '@/generated/schemas';

const titles = [
  '2026年12月6日凌晨系统维护公告',
  '关于营销短信发送时段调整的通知',
  '元旦假期客服值班安排',
  '国际短信部分国家资费调整通知',
  '关于加强短信签名实名报备的通知',
  '双十二大促期间发送高峰提醒',
  '平台新增变量短信 Excel 导入功能',
  '国庆假期期间营销短信暂停发送的通知',
  '中国电信通道割接公告',
  '状态报告推送新增签名字段',
];

export function demoNotices(n: number, offset = 0): Notice[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i + offset;
    const day = String(28 - (k % 28)).padStart(2, '0');
    const t = `2026-${String(11 - Math.floor(k / 28)).padStart(2, '0')}-${day} 10:${String(k % 60).padStart(2, '0')}:00`;
    return {
      id: 100 + k,
      noticeName: `${titles[k % titles.length]}${k >= titles.length ? `（${Math.floor(k / titles.length) + 1}）` : ''}`,
      noticeContent: `<p>尊敬的客户：<strong>第 ${k + 1} 条</strong>公告内容，请合理安排发送计划。</p>`,
      isTop: k < 2 ? 1 : 0,
      releaseTime: t,
      releaseTimeToStr: t,
    };
  });
}

export const xssNotice: Notice = {
  id: 666,
  noticeName: '含恶意代码的公告',
  isTop: 0,
  releaseTime: '2026-11-20 09:00:00',
  releaseTimeToStr: '2026-11-20 09:00:00',
  noticeContent: `<p onclick="window.__pwned='click'">正文文字</p><script>window.__pwned='script'</script>
<img src="x" onerror="window.__pwned='img'"><img src="https://cdn.example.com/banner.png" alt="横幅">
<iframe src="https://evil.example"></iframe><a href="javascript:window.__pwned='link'">危险链接</a>
<a href="https://docs.example.com/notice">查看详情</a><style>body{display:none}</style>
<svg onload="window.__pwned='svg'"><circle r="5"></circle></svg>
<table><tbody><tr><td>移动</td><td>0.040</td></tr></tbody></table>`,
};
