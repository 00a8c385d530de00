/**
 * 普通短信发送: accepting sends (ordinary and timed), their charge preview, re-edit, cancel, the
 * number import and its templates (routes.ts); the acceptance (service.ts, gate.ts), the message
 * rows and large tasks' chunks (messages.ts, chunks.ts), timed tasks released when due (timer.ts),
 * operators' review (review.ts). Depends on the clients module (the accounts a session reaches).
 *
 * The dispatch pipeline (server/modules/dispatch) runs the timed release and the chunk expansion in
 * its housekeeping and expander loops (`fireDueTimedTasks`, `expandNextChunk`, re-exported here);
 * send queues and releases messages through dispatch's index.ts.
 */
import { defineModule } from '../module';
import { sendRoutes } from './routes';
import { SendService } from './service';
import { CONSOLE_SEND_REFUSALS } from './refusals';

export {
  SendService,
  MSG as SEND_MSG,
  X as SEND_X,
  newTaskUid,
  stripSign,
  fillsTemplate,
  refusalOf,
  smsTypesOf,
  skipBlacklisted,
  withBlacklistMsg,
  type SendResult,
} from './service';
export { sendPayload, sent } from './routes';
export { assertMaySend, assertInterfaceAllowed, assertDeferredRoom } from './gate';
export { dropStaged, expandNextChunk, expandTask, insertMessages, stageChunks, type UnplacedBatch } from './messages';
export { textTokens, NUMBER_HEADER } from './import';
export { fireDueTimedTasks } from './timer';
export { reviewTask, ReviewError } from './review';
export {
  InterfaceSend,
  InterfaceRefusal,
  acceptInterfaceMessage,
  type InterfaceSendInput,
  type InterfaceSendResult,
  type InterfaceRefusalReason,
} from './interface';

declare module '../../context' {
  interface Services {
    send: SendService;
  }
}

export default defineModule({ name: 'send', dependencies: ['clients'] }, async (app, ctx) => {
  const send = (app.services.send = new SendService(ctx, app.services.clients));
  // the 监控 screen names the console's refused sends by these keys (server/http/refusals.ts)
  app.refusals.nameMessages(CONSOLE_SEND_REFUSALS);
  await app.register(sendRoutes(ctx, send));
});
