/**
 * TODO placeholder: the real 登录 page is built on another branch and replaces this file.
 * It exists only so the router's lazy import resolves.
 */
export default function LoginPage() {
  return <div style={{ padding: 48, textAlign: 'center' }}>登录（页面建设中）</div>;
}
