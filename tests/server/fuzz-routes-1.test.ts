// a quarter of the fuzz over every route and role (fuzz-lib.ts)
import { fuzzEveryRoute } from './fuzz-lib';

fuzzEveryRoute(0, 4);
