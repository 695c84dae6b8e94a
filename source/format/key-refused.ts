/**
What a pane, or a headless command, says while the service refuses the key: nothing will load until
the key changes, so it says where the key comes from and how to try again (`then`: `:profile <name>
to try again` in the dashboard, `run it again` on the command line).
*/
/** How to try again in the dashboard: `:profile` reads the key afresh. */
export const retryInDashboard = ':profile <name> to try again';

/** How to try again on the command line. */
export const retryOnCommandLine = 'run it again';

export const keyNotAccepted = (status: number, then: string) =>
	`the key is not accepted (HTTP ${status}): check RUNPOD_API_KEY or the profile's api_key in ~/.runpod/config.toml, then ${then}`;
