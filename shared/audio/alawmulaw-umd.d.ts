// The UMD build of `alawmulaw` (g711.ts imports it by path so that Node and Vite load the same
// CommonJS file): its default export is the `module.exports` holding both laws.
declare module 'alawmulaw/dist/alawmulaw.js' {
  interface Law {
    encodeSample(sample: number): number;
    decodeSample(code: number): number;
    encode(samples: Int16Array): Uint8Array;
    decode(samples: Uint8Array): Int16Array;
  }
  const alawmulaw: { alaw: Law; mulaw: Law };
  export default alawmulaw;
}
