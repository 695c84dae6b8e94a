import {fleetWriteSpecs} from './fleet-write-specs.js';
import {jobWriteSpecs} from './job-write-specs.js';
import type {WriteId, WriteSpec} from './write-spec.js';

export type {AfterContext, Danger, EndpointTarget, JobTarget, PodTarget, WriteId, WriteSpec, WriteTypes} from './write-spec.js';

/** Every write podtop can send to the service. Each goes out once, through `engine.perform`. */
export const writeSpecs: {readonly [Id in WriteId]: WriteSpec<Id>} = {...jobWriteSpecs, ...fleetWriteSpecs};
