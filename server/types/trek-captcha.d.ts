declare module 'trek-captcha' {
  /** A GIF with `size` letters; `token` is the answer. */
  export default function captcha(opts?: { size?: number; style?: number }): Promise<{ token: string; buffer: Buffer }>;
}
