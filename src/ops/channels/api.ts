/** The channel actions (docs/api-operator.md "Channels"): each answers the server's message (通道已保存…, 通道已暂停, 通道已恢复, 通道已删除). */
import { postJson } from '@/providers/http';
import type { OperatorChannelForm, RoutePreview, RoutePreviewParams } from '@/generated/schemas';
import { CHANNEL_URLS } from './data';

export const channelsApi = {
  /** 新增 / 编辑: refusals (通道设置有误：…) are the dialog's to show */
  save: async (form: OperatorChannelForm) => (await postJson(CHANNEL_URLS.save, form, { silent: true })).msg,
  /** 暂停 / 恢复 / 删除: refusals are toasted by the HTTP client */
  pause: async (name: string) => (await postJson(CHANNEL_URLS.pause, { name })).msg,
  resume: async (name: string) => (await postJson(CHANNEL_URLS.resume, { name })).msg,
  remove: async (name: string) => (await postJson(CHANNEL_URLS.remove, { name })).msg,
  /** 路由预览: a refusal is the panel's to show */
  route: async (params: RoutePreviewParams) =>
    (await postJson<RoutePreview>(CHANNEL_URLS.route, params, { silent: true })).data,
};
