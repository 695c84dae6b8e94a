/** The first path segment of every v2 management resource: `/v2/<these>/...` is REST v2, any other `/v2/<id>/...` the job API. */
export const restResources = ['account', 'billing', 'catalog', 'clusters', 'network-volumes', 'pods', 'registries', 'serverless', 'templates'] as const;

export const isRestResource = (segment: string | undefined): boolean => (restResources as readonly string[]).includes(segment ?? '');
