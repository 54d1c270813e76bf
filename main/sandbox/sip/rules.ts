/** The SIP value rules live in shared/sip/rules.ts, so the app checks a form as the sandbox does. */
export * from '../../../shared/sip/rules';
