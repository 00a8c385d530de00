/**
 * 推送 (pushes to customers' URLs): the outbox rows the pipeline and the template review queue
 * (outbox.ts: reports, uplink, template review results) and the pusher that delivers them
 * (pusher.ts, run by the dispatch pipeline). Not a plugin: no routes, no service of its own.
 */
export {
  enqueueMo,
  enqueueReports,
  enqueueTemplateReview,
  stateTitle,
  type MoRecord,
  type ReportRecord,
} from './outbox';
export { Pusher } from './pusher';
