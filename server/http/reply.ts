/** The success envelope: `{ code: 0, msg, data }`. */
export interface OkBody<T> {
  code: 0;
  msg: string;
  data?: T;
}

export function ok<T>(data?: T, msg = '成功'): OkBody<T> {
  return data === undefined ? { code: 0, msg } : { code: 0, msg, data };
}
