/**
 * The run API's version. It goes up by one whenever a field or an event kind is added; a
 * field is never renamed, retyped or removed (test/report/contract.test.ts holds that against
 * the frozen copy of every published version in test/fixtures/run-api/).
 */
export const RUN_API_VERSION = 4;
