/** A recorded call's transcript read from its run's output: both sides in order, blanks and other shapes left out. */
import { describe, expect, it } from 'vitest';
import { recordedTranscript } from '@/families/realtime/lib/recorded-transcript';

describe('recordedTranscript()', () => {
  it("reads each side's text in order with its status, leaving out empty and unknown entries", () => {
    const output = {
      transcript: [
        { itemId: 'a', role: 'user', text: ' what time is it ', status: 'done' },
        { itemId: 'b', role: 'assistant', text: 'It is', status: 'truncated' },
        { itemId: 'c', role: 'assistant', text: '   ' },
        { itemId: 'd', role: 'system', text: 'x' },
        'junk',
      ],
    };
    expect(recordedTranscript(output)).toEqual([
      { role: 'user', text: 'what time is it', status: 'done' },
      { role: 'assistant', text: 'It is', status: 'truncated' },
    ]);
  });

  it('is null for a run that kept no transcript', () => {
    expect([recordedTranscript(null), recordedTranscript({ choices: [] }), recordedTranscript({ transcript: 'text' })]).toEqual([null, null, null]);
  });
});
