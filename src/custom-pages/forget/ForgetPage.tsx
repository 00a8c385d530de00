/**
 * TODO placeholder: the real 找回密码 page is built on another branch and replaces this file.
 * It exists only so the router's lazy import resolves.
 */
export default function ForgetPage() {
  return <div style={{ padding: 48, textAlign: 'center' }}>找回密码（页面建设中）</div>;
}
