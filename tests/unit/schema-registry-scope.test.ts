/** The console bundles the schemas of its screens and forms, not the server's environment (schemas/config/). */
import { expect, it } from 'vitest';
import { schemaMap } from '@/schema';

it("leaves the server's configuration schema out of the console", () => {
  expect(Object.keys(schemaMap)).toContain('forms/login.json');
  expect(Object.keys(schemaMap).filter((k) => k.startsWith('config/'))).toEqual([]);
});
