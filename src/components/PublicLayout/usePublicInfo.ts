import { useEffect, useState } from 'react';
import type { Branding, SupportContact } from '@/generated/schemas';
import { ApiError, get } from '../../providers/http';

export type { Branding, SupportContact };

/** Branding (GET /loginInfo) and support contacts (GET /supportInfo) of the public pages. */
export function usePublicInfo() {
  const [branding, setBranding] = useState<Partial<Branding>>({});
  const [brandingError, setBrandingError] = useState('');
  const [contacts, setContacts] = useState<SupportContact[]>([]);
  useEffect(() => {
    let live = true;
    get<Branding>('/loginInfo', undefined, { silent: true })
      .then((b) => live && setBranding(b.data ?? {}))
      .catch((e) => live && setBrandingError(e instanceof ApiError ? e.message : '接口异常'));
    get<SupportContact[]>('/supportInfo', undefined, { silent: true })
      .then((b) => live && setContacts(b.data ?? []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return { branding, brandingError, contacts };
}
