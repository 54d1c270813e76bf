import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../../../../main/sandbox/completions/complete';

describe('sandbox/completions/complete', () => {
  describe('parseTranscript()', () => {
    it('reads Human and Assistant turns, leaving out the empty Assistant turn at the end', () => {
      expect(parseTranscript('\n\nHuman: Hi\n\nAssistant: Hello!\n\nHuman: How are you?\n\nAssistant:')).toEqual([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'How are you?' },
      ]);
    });

    it('takes a prompt without markers, or text before the first marker, as a human turn', () => {
      expect(parseTranscript('Write a haiku')).toEqual([{ role: 'user', content: 'Write a haiku' }]);
      expect(parseTranscript('Context here\n\nHuman: Go\n\nAssistant:')).toEqual([
        { role: 'user', content: 'Context here' },
        { role: 'user', content: 'Go' },
      ]);
    });
  });
});
