/** "记住我" keeps only the user name in this browser (the session itself is the server's 7-day remember cookie). */
const KEY = 'sms-console.login.username';

export const rememberedUser = {
  get: (): string => {
    try {
      return localStorage.getItem(KEY) ?? '';
    } catch {
      return '';
    }
  },
  set(username: string | null) {
    try {
      if (username) localStorage.setItem(KEY, username);
      else localStorage.removeItem(KEY);
    } catch {
      /* storage unavailable (private mode): nothing to remember */
    }
  },
};
