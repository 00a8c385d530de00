/**
 * antd 5 renders its wave effect and static pop-ups with ReactDOM.render, which React 19 no
 * longer has. This hands antd React 19's createRoot instead (what @ant-design/v5-patch-for-react-19
 * does, without adding the package). Imported once by AppProviders.
 */
import { unstableSetRender } from 'antd';
import { createRoot, type Root } from 'react-dom/client';

type Container = (Element | DocumentFragment) & { __antdRoot?: Root };

unstableSetRender((node, container) => {
  const c = container as Container;
  c.__antdRoot ??= createRoot(c);
  c.__antdRoot.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    c.__antdRoot?.unmount();
    delete c.__antdRoot;
  };
});
