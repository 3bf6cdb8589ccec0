/** The PostgreSQL server the end-to-end tests create their databases on. */
export const TEST_SERVER_ENV = 'TRIBUTARY_TEST_SERVER_URL';

/** Tests create and drop databases: refuse any server URL whose database is not a test one. */
export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/test/i.test(name)) {
    throw new Error(
      `Refusing to run the end-to-end tests against database "${name}": its name must contain "test"`,
    );
  }
}
