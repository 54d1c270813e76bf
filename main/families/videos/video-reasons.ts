/**
 * What went wrong with a video, said for a person: the service's `error.code` of a failed video
 * (spec Errors 1 and 3), the HTTP status of a refused create (Errors 2), and the app's own ends
 * (moderated, the result URL expired before the download). A job waits out 408, 429, 5xx and no
 * answer instead of failing on them, so their reasons claim no "retries ran out". The service's own message is shown
 * beside these; they say what it means and what to do.
 */
import type { WorkbenchError } from '../../../shared/contract/errors';

const BY_SERVICE_CODE: Record<string, string> = {
  invalid_argument: 'The service could not use something in the request: the prompt, an input image or video, or a setting. Check the inputs (type, size, length) and try again with changes.',
  permission_denied: 'The API key is not allowed to make this video: its team may lack access to the model or to video generation, or an input file belongs to another team.',
  failed_precondition: 'An input was not ready: an uploaded file may still be processing, have expired, or not be a supported type. Check it in Files and try again.',
  service_unavailable: 'The video engine was overloaded and gave up. Nothing is wrong with the request: Retry in a few minutes.',
  internal_error: 'The service failed while making the video. This is on its side: Retry, and if it keeps failing, try a shorter or simpler video.',
};

const BY_STATUS: Record<number, string> = {
  400: 'The service refused the request before starting: a field is out of range or an input is not accepted. Fix it and try again.',
  401: 'The service did not accept the API key. Check the key in Connections.',
  403: 'The API key may not make videos (no permission, blocked, or out of credits). Check the team and its credits.',
  404: 'The service does not know the model (or the input file). Choose another model or check the file in Files.',
  413: 'An input is too large for the service. Upload it to Files and use its file id, or use a smaller file.',
  415: 'The service could not read the request.',
  422: 'A field of the request has the wrong shape. Check the inputs and try again.',
  429: 'Rate limited or out of credits. Wait a while, or check the team\'s spending limit, then Retry.',
  500: 'The service failed on its side. Retry in a moment.',
  502: 'A gateway in front of the service failed. Retry in a moment.',
  503: 'The service was overloaded. Retry in a few minutes.',
  504: 'The service timed out. Retry in a moment.',
};

export const MODERATED_REASON =
  'The video was made but withheld by the service\'s moderation, so there is nothing to download. Change the prompt or inputs and try again; a retry of the same request will likely be withheld too.';

export const NO_URL_REASON = 'The service said the video is done but sent no address to download it from. Retry makes a new video.';

export const EXPIRED_REASON =
  'The video was made, but its download link expired before the app could fetch it (the service keeps result links only for a while). Retry makes a new video (and costs again).';

/** A plain-language reason for a failed video job's error. */
export function videoFailureReason(error: WorkbenchError & { serviceCode?: string }): string {
  const byCode = error.serviceCode ? BY_SERVICE_CODE[error.serviceCode] : undefined;
  if (byCode) return byCode;
  if (error.code !== 'not_found' && error.status !== undefined && BY_STATUS[error.status]) return BY_STATUS[error.status]!;
  switch (error.code) {
    case 'not_found':
      return 'The service no longer has this video request. Retry makes a new video.';
    case 'network':
      return 'The app could not reach the service. Check the connection, then Retry.';
    case 'timeout':
      return 'The service did not answer in time. Retry in a moment.';
    case 'protocol':
      return 'The service answered something the app could not read. The details are in the run\'s inspector.';
    case 'cancelled':
      return 'Stopped.';
    case 'internal':
      return 'The app failed while handling this video (a disk full, a file it could not write). The message says what; Retry once it is fixed.';
    default:
      return 'The video could not be made. The message says why.';
  }
}

/** Whether `code` is one the spec lists for a failed video (Errors 1 and 3). */
export function isVideoErrorCode(code: string): boolean {
  return code in BY_SERVICE_CODE;
}
