/**
 * msw 3's Node interceptors call Promise.withResolvers (Node 22+). The project supports Node 20.19+,
 * so tests that use msw/node get this standard polyfill first.
 */
if (!(Promise as any).withResolvers) {
  (Promise as any).withResolvers = function withResolvers<T>() {
    let resolve!: (v: T | PromiseLike<T>) => void;
    let reject!: (e?: unknown) => void;
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}
