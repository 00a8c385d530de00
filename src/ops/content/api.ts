/** The 内容 calls beside the lists (docs/api-operator.md "Content"): each answers the server's message. */
import { postJson } from '@/providers/http';
import type { ContentTestForm, NoticePublishForm, SensitiveWordsAddForm } from '@/generated/schemas';
import { CONTENT_URLS } from './data';

export const contentApi = {
  /** 已添加 N 个，M 个已存在; refusals are the dialog's to show */
  addWords: async (v: SensitiveWordsAddForm) => (await postJson(CONTENT_URLS.addWords, v, { silent: true })).msg,
  /** refusals are toasted */
  removeWord: async (id: number) => (await postJson(CONTENT_URLS.removeWord, { id })).msg,
  /** the users' content check's answer over the whole list ({"200":"ok"} or {"500":"begin,end",…}) and its message */
  testText: async (v: ContentTestForm) => {
    const body = await postJson<Record<string, string>>(CONTENT_URLS.testText, v);
    return { data: body.data, msg: body.msg };
  },
  publishNotice: async (v: NoticePublishForm) => (await postJson(CONTENT_URLS.publishNotice, v, { silent: true })).msg,
  deleteNotice: async (id: number) => (await postJson(CONTENT_URLS.deleteNotice, { id })).msg,
};
