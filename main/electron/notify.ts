/**
 * Desktop notifications for main's services (a video job finished or failed): Electron's
 * `Notification`, when the platform supports it; otherwise nothing (a Linux session without a
 * notification daemon), which the job centre covers anyway.
 */
import { Notification } from 'electron';

export function createNotifier(log: (line: string) => void): (title: string, body: string) => void {
  return (title, body) => {
    if (!Notification.isSupported()) return;
    try {
      new Notification({ title, body, silent: false }).show();
    } catch (error) {
      log(`notification: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
