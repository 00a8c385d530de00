import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent } from 'storybook/test';
import { Route, Routes } from 'react-router';
import { MemoryRouter } from 'react-router';
import NotFound from './NotFound';

const meta = {
  title: 'Pages/NotFound',
  component: NotFound,
  render: () => (
    <MemoryRouter initialEntries={['/no/such/page']}>
      <Routes>
        <Route path="/" element={<div>首页内容</div>} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </MemoryRouter>
  ),
} satisfies Meta<typeof NotFound>;
export default meta;

export const Default: StoryObj<typeof meta> = {
  name: '页面不存在',
  play: async ({ canvas: c }) => {
    await expect(c.getByText('Not Found')).toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: /返回首页/ }));
    await expect(await c.findByText('首页内容')).toBeInTheDocument();
  },
};
