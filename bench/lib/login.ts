/** Logs in through the public API as the console does (slider challenge, verify, login) and returns the Cookie header. */
import { createHash } from 'node:crypto';

export async function loginCookies(base: string, username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const take = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const headers = () => ({
    cookie: cookie(),
    'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    'content-type': 'application/json',
  });

  take(await fetch(`${base}/api/login/timeout`));
  const ch = await fetch(`${base}/api/captcha/slider`, { headers: headers() });
  take(ch);
  const { data: challenge } = await ch.json();
  const width = 300;
  // like a hand: eased (not constant speed, not a straight line), ~750 ms, a little vertical wobble
  const track = Array.from({ length: 31 }, (_, i) => [
    Math.round(width * (1 - (1 - i / 30) ** 2.2)),
    i * 25 + (i % 3),
    [0, 1, 1, 2, 1][i % 5],
  ]);
  const v = await fetch(`${base}/api/captcha/slider/verify`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ server: challenge.server, width, track }),
  });
  take(v);
  const verified = await v.json();
  if (verified.code !== 0) throw new Error(`slider: ${verified.msg}`);
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      username,
      password: createHash('sha256').update(password).digest('hex'),
      server: challenge.server,
      token: verified.data.token,
    }),
  });
  take(res);
  const body = await res.json();
  if (body.code !== 0) throw new Error(`login: ${body.msg}`);
  return cookie();
}
