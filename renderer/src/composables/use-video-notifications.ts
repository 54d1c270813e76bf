/**
 * Desktop notifications for video jobs in browser mode (in Electron, main notifies): when a job
 * becomes done, failed, moderated or expired (`videos.changed`), one notification, once per job,
 * from one tab (lib/page-notifications.ts). A click focuses the window and opens the job centre.
 * Permission is asked on the first create (`askVideoNotificationPermission`), never at load; if
 * it is refused nothing more is said.
 */
import { getCurrentScope, onScopeDispose } from 'vue';
import type { Router } from 'vue-router';
import type { VideoJob } from '@shared/families/videos/contract';
import { useWorkbench } from '../api';
import { createNotifyClaims, pageNotifier, type NotifyClaims } from '../lib/page-notifications';
import { useWorkbenchEvent } from './use-workbench-event';

/** Title and body for a job that just finished, or null when its state is not worth a notification. */
export function videoNotificationText(job: Pick<VideoJob, 'state' | 'prompt' | 'error'>): { title: string; body: string } | null {
  const about = job.prompt.trim() ? `“${job.prompt.trim().slice(0, 100)}${job.prompt.trim().length > 100 ? '…' : ''}”` : 'Your video';
  switch (job.state) {
    case 'done':
      return { title: 'Video ready', body: `${about} is ready to play.` };
    case 'failed':
      return { title: 'Video failed', body: job.error?.reason ?? job.error?.message ?? `${about} failed.` };
    case 'moderated':
      return { title: 'Video withheld by moderation', body: `${about} did not pass the service’s moderation check; no video was made.` };
    case 'expired':
      return { title: 'Video expired', body: `${about} finished, but its link expired before it could be downloaded. Retry to make it again.` };
    default:
      return null;
  }
}

async function isBrowserShell(): Promise<boolean> {
  try {
    return (await useWorkbench().app.info()).shell === 'browser';
  } catch {
    return false;
  }
}

/** On the first create: asks for permission when it was never asked (browser mode only). */
export async function askVideoNotificationPermission(): Promise<void> {
  const notifier = pageNotifier();
  if (notifier.permission() !== 'default' || !(await isBrowserShell())) return;
  await notifier.requestPermission().catch(() => 'denied');
}

/** For the app shell: notifies while the page lives. */
export function useVideoNotifications(options: { router: Router; claims?: NotifyClaims }): void {
  const claims = options.claims ?? createNotifyClaims();
  let browser = false;
  void isBrowserShell().then((yes) => (browser = yes));
  useWorkbenchEvent('videos', 'changed', (job) => {
    const text = videoNotificationText(job);
    const notifier = pageNotifier();
    if (!browser || !text || notifier.permission() !== 'granted' || !claims.claim(`video:${job.id}`)) return;
    notifier.show(text.title, {
      body: text.body,
      tag: `video-${job.id}`,
      onClick: () => {
        window.focus();
        void options.router.push('/videos');
      },
    });
  });
  if (getCurrentScope()) onScopeDispose(() => claims.dispose());
}
