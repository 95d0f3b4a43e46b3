import packageJson from '../../../package.json' with { type: 'json' };

/** The running release, from package.json (bundled into the build, so it is the version that was built). */
export const APP_VERSION: string = packageJson.version;
