import {buildSchema} from 'graphql';

/**
The management API's schema: the operations of the seed plus the fields and inputs the official
clients (runpod-python, runpodctl, the JS SDK) send.
*/
/** Pod creation fields both deploy mutations take. */
const deployFields = `
		name: String
		imageName: String
		templateId: String
		gpuTypeId: String
		gpuCount: Int
		cloudType: CloudTypeEnum
		volumeInGb: Int
		containerDiskInGb: Int
		minVcpuCount: Int
		minMemoryInGb: Int
		dockerArgs: String
		ports: String
		volumeMountPath: String
		env: [EnvironmentVariableInput]
		startSsh: Boolean
		startJupyter: Boolean
		supportPublicIp: Boolean
		dataCenterId: String
		countryCode: String
		networkVolumeId: String
		minDownload: Int
		minUpload: Int
		allowedCudaVersions: [String]`;

export const schemaSource = /* GraphQL */ `
	enum CloudTypeEnum { ALL SECURE COMMUNITY }
	enum FlashBootType { FLASHBOOT OFF }
	enum PodStatus { RUNNING EXITED TERMINATED }

	type Query {
		myself: User
		pod(input: PodFilter!): Pod
		gpuTypes(input: GpuTypeFilter): [GpuType!]!
	}

	type Mutation {
		saveEndpoint(input: EndpointInput!): Endpoint
		deleteEndpoint(id: String!): Boolean
		podFindAndDeployOnDemand(input: PodFindAndDeployOnDemandInput!): Pod
		podRentInterruptable(input: PodRentInterruptableInput!): Pod
		podResume(input: PodResumeInput!): Pod
		podBidResume(input: PodBidResumeInput!): Pod
		podStop(input: PodStopInput!): Pod
		podTerminate(input: PodTerminateInput!): Boolean
	}

	type User {
		id: String!
		email: String
		clientBalance: Float
		currentSpendPerHr: Float
		spendLimit: Int
		endpoints: [Endpoint!]!
		pods: [Pod!]!
		serverlessDiscount: ServerlessDiscount
	}

	type ServerlessDiscount {
		discountFactor: Float!
		type: String!
		expirationDate: String
	}

	type EnvironmentVariable { key: String! value: String! }
	input EnvironmentVariableInput { key: String! value: String! }

	type NetworkVolume { id: String! dataCenterId: String }

	type Endpoint {
		id: String!
		name: String!
		templateId: String
		gpuIds: String
		gpuCount: Int
		idleTimeout: Int
		locations: String
		networkVolumeId: String
		networkVolume: NetworkVolume
		scalerType: String
		scalerValue: Int
		workersMin: Int
		workersMax: Int
		workersStandby: Int
		executionTimeoutMs: Int
		flashBootType: FlashBootType
		allowedCudaVersions: String
		env: [EnvironmentVariable]
		aiKey: String
		type: String
		userId: String
		version: Int
		createdAt: String
		"The endpoint's workers, as pods."
		pods: [Pod]
	}

	input EndpointInput {
		id: String
		name: String
		templateId: String
		gpuIds: String
		gpuCount: Int
		idleTimeout: Int
		locations: String
		networkVolumeId: String
		scalerType: String
		scalerValue: Int
		workersMin: Int
		workersMax: Int
		workersStandby: Int
		executionTimeoutMs: Int
		flashBootType: FlashBootType
		allowedCudaVersions: String
		env: [EnvironmentVariableInput]
		type: String
	}

	type Pod {
		id: String!
		name: String
		imageName: String
		env: [String]
		machineId: String
		machine: PodMachineInfo
		desiredStatus: PodStatus
		lastStatusChange: String
		costPerHr: Float
		adjustedCostPerHr: Float
		gpuCount: Int
		vcpuCount: Float
		memoryInGb: Float
		containerDiskInGb: Int
		volumeInGb: Float
		volumeMountPath: String
		dockerArgs: String
		dockerId: String
		podType: String
		interruptible: Boolean
		bidPerGpu: Float
		port: Int
		ports: String
		templateId: String
		networkVolumeId: String
		version: Int
		uptimeSeconds: Int
		runtime: PodRuntime
	}

	type PodMachineInfo {
		podHostId: String
		gpuDisplayName: String
		gpuTypeId: String
		location: String
		dataCenterId: String
		gpuAvailable: Int
		maintenanceStart: String
		maintenanceEnd: String
		maintenanceNote: String
	}

	type PodRuntime {
		uptimeInSeconds: Int
		ports: [PodRuntimePorts]
		gpus: [PodRuntimeGpus]
		container: PodRuntimeContainer
	}

	type PodRuntimePorts { ip: String isIpPublic: Boolean privatePort: Int publicPort: Int type: String }
	type PodRuntimeGpus { id: String gpuUtilPercent: Int memoryUtilPercent: Int }
	type PodRuntimeContainer { cpuPercent: Int memoryPercent: Int }

	input PodFilter { podId: String! }
	input GpuTypeFilter { id: String ids: [String] }

	input PodFindAndDeployOnDemandInput {
${deployFields}
		instanceId: String
		deployCost: Float
	}

	input PodRentInterruptableInput {
		bidPerGpu: Float!
${deployFields}
	}

	input PodResumeInput { podId: String! gpuCount: Int allowedCudaVersions: [String] }
	input PodBidResumeInput { podId: String! bidPerGpu: Float! gpuCount: Int allowedCudaVersions: [String] }
	input PodStopInput { podId: String! incrementVersion: Boolean }
	input PodTerminateInput { podId: String! }

	type GpuType {
		id: String!
		displayName: String
		manufacturer: String
		memoryInGb: Int
		cudaCores: Int
		maxGpuCount: Int
		maxGpuCountSecureCloud: Int
		maxGpuCountCommunityCloud: Int
		secureCloud: Boolean
		communityCloud: Boolean
		securePrice: Float
		communityPrice: Float
		secureSpotPrice: Float
		communitySpotPrice: Float
		oneWeekPrice: Float
		oneMonthPrice: Float
		threeMonthPrice: Float
		sixMonthPrice: Float
		lowestPrice(input: GpuLowestPriceInput): LowestPrice
	}

	input GpuLowestPriceInput {
		gpuCount: Int
		secureCloud: Boolean
		supportPublicIp: Boolean
		minMemoryInGb: Int
		minVcpuCount: Int
		minDownload: Int
		minUpload: Int
		minDisk: Int
		countryCode: String
		dataCenterId: String
		compliance: [String]
		globalNetwork: Boolean
	}

	type LowestPrice {
		gpuName: String
		gpuTypeId: String
		minimumBidPrice: Float
		uninterruptablePrice: Float
		minMemory: Int
		minVcpu: Int
		stockStatus: String
		maxUnreservedGpuCount: Int
		availableGpuCounts: [Int]
		rentedCount: Int
		totalCount: Int
		rentalPercentage: Float
		countryCode: String
		compliance: [String]
	}
`;

export const schema = buildSchema(schemaSource);
