/**
 * A widget whose code loads when a form first shows it: pages without a select, a text area or a
 * country-code field (the login page) do not download those. Until it arrives a disabled input of
 * the same size holds its place.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import Input from 'antd/es/input/Input';
import type { WidgetProps } from '@rjsf/utils';

export function lazyWidget(load: () => Promise<{ default: ComponentType<WidgetProps> }>): ComponentType<WidgetProps> {
  const Widget = lazy(load);
  return function LazyWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<Input id={props.id} disabled aria-busy="true" placeholder={props.placeholder} />}>
        <Widget {...props} />
      </Suspense>
    );
  };
}
