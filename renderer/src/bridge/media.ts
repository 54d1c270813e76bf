/**
 * The page's one media channel (see media-channel.ts), made on first use: in Electron over the
 * preload's `window.workbenchMedia`; in browser mode over the media process's WebSocket, whose
 * address and token come from `media.channel` (asked again on every reconnect: a restarted media
 * process has a new token). Stores use `mediaChannel().send(...)` / `.onFrame(...)`.
 */
import { workbench } from './index';
import { createMediaChannel, electronFramePort, webSocketFramePort, type MediaChannel } from './media-channel';
import type { SocketLike } from './ws-transport';

let channel: MediaChannel | null = null;

export function mediaChannel(): MediaChannel {
  if (channel) return channel;
  const electron = window.workbenchMedia;
  const connect = electron
    ? electronFramePort(electron)
    : webSocketFramePort(
        async () => {
          const info = await workbench.media.channel();
          if (info.transport !== 'websocket') throw new Error('The media process offers no WebSocket channel to this page.');
          return info;
        },
        (url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike,
      );
  channel = createMediaChannel({ connect });
  return channel;
}

export type { MediaChannel, MediaChannelStats, DeliveredInfo } from './media-channel';
