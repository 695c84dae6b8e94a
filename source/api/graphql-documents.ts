/** The documents podtop sends. Variables throughout, named operations, and only the fields the UI uses. */

const endpointFields =
	'id name templateId gpuIds gpuCount idleTimeout locations networkVolumeId scalerType scalerValue workersMin workersMax workersStandby flashBootType pods { id desiredStatus }';
/** An endpoint's writable fields: what a save must send back whole. */
const savedEndpointFields =
	'id name templateId gpuIds gpuCount idleTimeout locations networkVolumeId scalerType scalerValue workersMin workersMax workersStandby flashBootType executionTimeoutMs allowedCudaVersions env { key value }';
/**
The list's fields: what the Pods pane, the pod view and the exporter show, nothing more: 10,000 pods
are polled whole (6 MB a poll with `uptimeSeconds` and `lastStatusChange`, which nothing shows; 5.2 MB
without). `volumeInGb` is what a stopped pod pays for (0.17 MB of it).
*/
const podListFields =
	'id name imageName desiredStatus costPerHr volumeInGb gpuCount vcpuCount memoryInGb podType machine { gpuDisplayName location } runtime { uptimeInSeconds gpus { id gpuUtilPercent memoryUtilPercent } container { cpuPercent memoryPercent } }';
/**
A pod's summary: what the header, alerts and resume read while the Pods pane is hidden (2.1 MB a
poll at 10,000 pods instead of 5.2 MB; `volumeInGb` tells the spend alert what a stopped pod costs).
Merged over the last full record, never shown alone for long.
*/
const podSummaryFields = 'id name desiredStatus costPerHr volumeInGb gpuCount podType runtime { gpus { gpuUtilPercent } }';
/** One pod's fields: the list's, its ports, disks, machine and env (names shown; values only when asked). */
const podFields = `${podListFields.replace(/ }$/, ' ports { ip isIpPublic privatePort publicPort type } }')} env containerDiskInGb volumeMountPath machineId`;

/** The documents made, by count of pods (a screen's rows: a few dozen at most). */
const podsById = new Map<number, string>();

/**
The pods on screen by id, one aliased field each (`p0: pod(…)`), with the list's fields: a few
kilobytes where the whole list of 2,000 pods is a megabyte. A pod gone since is `null`.
*/
export function podsByIdDocument(count: number): string {
	const made = podsById.get(count);
	if (made !== undefined) {
		return made;
	}

	const indexes = Array.from({length: count}, (_, index) => index);
	const variables = indexes.map(index => `$p${index}: String!`).join(', ');
	const fields = indexes.map(index => `p${index}: pod(input: {podId: $p${index}}) { ${podListFields} }`).join(' ');
	const document = `query PodtopPodsById(${variables}) { ${fields} }`;
	podsById.set(count, document);
	return document;
}

export const documents = {
	endpoints: `query PodtopEndpoints { myself { serverlessDiscount { discountFactor type expirationDate } endpoints { ${endpointFields} } } }`,
	/** Every field an edit must send back: the service replaces the whole record on save. */
	endpointsFull: `query PodtopEndpointsFull { myself { endpoints { ${savedEndpointFields} } } }`,
	balance: 'query PodtopBalance { myself { clientBalance currentSpendPerHr } }',
	pods: `query PodtopPods { myself { pods { ${podListFields} } } }`,
	podSummaries: `query PodtopPodSummaries { myself { pods { ${podSummaryFields} } } }`,
	pod: `query PodtopPod($podId: String!) { pod(input: {podId: $podId}) { ${podFields} } }`,
	gpuTypes:
		'query PodtopGpuTypes($gpuCount: Int, $secureCloud: Boolean) { gpuTypes { id displayName manufacturer memoryInGb maxGpuCount securePrice communityPrice secureSpotPrice communitySpotPrice oneWeekPrice oneMonthPrice threeMonthPrice sixMonthPrice lowestPrice(input: {gpuCount: $gpuCount, secureCloud: $secureCloud}) { stockStatus maxUnreservedGpuCount availableGpuCounts minimumBidPrice uninterruptablePrice compliance } } }',
	saveEndpoint: `mutation PodtopSaveEndpoint($input: EndpointInput!) { saveEndpoint(input: $input) { ${savedEndpointFields} } }`,
	deleteEndpoint: 'mutation PodtopDeleteEndpoint($id: String!) { deleteEndpoint(id: $id) }',
	deployOnDemand: `mutation PodtopDeploy($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { ${podFields} } }`,
	rentInterruptable: `mutation PodtopRentSpot($input: PodRentInterruptableInput!) { podRentInterruptable(input: $input) { ${podFields} } }`,
	resume: `mutation PodtopResume($input: PodResumeInput!) { podResume(input: $input) { ${podFields} } }`,
	bidResume: `mutation PodtopBidResume($input: PodBidResumeInput!) { podBidResume(input: $input) { ${podFields} } }`,
	stop: `mutation PodtopStop($input: PodStopInput!) { podStop(input: $input) { ${podFields} } }`,
	terminate: 'mutation PodtopTerminate($input: PodTerminateInput!) { podTerminate(input: $input) }',
} as const;
