/** A channel's name as shown: the default link (the channel '') by its label in enums/channel-source.json. */
import { ChannelSource } from '@/generated/schemas';
import { enumLabel } from '@/schema';

export const channelName = (name: string) => name || (enumLabel('channel-source', ChannelSource.Default) ?? name);
