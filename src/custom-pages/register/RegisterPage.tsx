/**
 * TODO placeholder: the real 注册 page is built on another branch and replaces this file.
 * It exists only so the router's lazy import resolves.
 */
export default function RegisterPage() {
  return <div style={{ padding: 48, textAlign: 'center' }}>注册（页面建设中）</div>;
}
