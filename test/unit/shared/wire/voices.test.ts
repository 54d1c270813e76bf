import { describe, expect, it } from 'vitest';
import { customVoiceListSchema, customVoiceSchema, voicePatchProblem } from '../../../../shared/wire/voices';

describe('voices wire', () => {
  it('reads a custom voice and a page of them (wire-notes §6.1)', () => {
    const voice = { voice_id: 'abc123xy', name: 'My Narrator', description: null, gender: 'female', accent: null, age: null, language: 'en', use_case: 'narration', tone: 'warm', created_at: '2026-05-02T17:04:05Z' };
    expect(customVoiceSchema.parse(voice)).toEqual(voice);
    expect(customVoiceListSchema.parse({ voices: [voice], pagination_token: null }).voices).toHaveLength(1);
    expect(customVoiceListSchema.parse({ voices: [] }).pagination_token).toBeUndefined();
    expect(customVoiceSchema.safeParse({ name: 'x' }).success).toBe(false);
  });

  it('applies the PATCH rules: one field at least, null clears, empty refused, enums, no audio', () => {
    expect(voicePatchProblem({ tone: 'calm' })).toBeNull();
    expect(voicePatchProblem({ description: null, accent: 'Scottish' })).toBeNull();
    expect(voicePatchProblem({})).toMatch(/^Change at least one of name, description/);
    expect(voicePatchProblem({ name: '' })).toBe('"name" cannot be empty; use null to clear it.');
    expect(voicePatchProblem({ tone: 'grumpy' })).toBe('"tone" must be one of warm, casual, professional, friendly, authoritative, expressive, calm (got "grumpy").');
    expect(voicePatchProblem({ file: 'x' })).toMatch(/cannot be changed/);
    expect(voicePatchProblem({ colour: 'red' })).toMatch(/^"colour" is not a voice field/);
    expect(voicePatchProblem({ age: 3 })).toBe('"age" must be a string or null.');
    expect(voicePatchProblem({}, true)).toBeNull();
    expect(voicePatchProblem({ gender: null }, true)).toMatch(/cannot be null when creating/);
  });
});
