import {expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {statesInOrder} from '../../source/store/states-in-order.js';

const pod = (id: string, util: number): PodRecord => ({id, name: id, desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: util}]}});

test("a polled list's states are listed in its order, and only for the map and order they were listed with", () => {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	writes.setPods([pod('b', 1), pod('a', 2), pod('c', 3)], 1000);
	const {pods} = store.getState();
	expect(statesInOrder(pods)).toEqual(pods.order.map(id => pods.byId[id]));
	writes.setPods([pod('b', 1), pod('a', 5), pod('c', 3)], 2000);
	const next = store.getState().pods;
	expect(next.order).toBe(pods.order);
	expect(statesInOrder(next)?.[1]?.record.runtime?.gpus?.[0]?.gpuUtilPercent).toBe(5);
	// Another order with the same map, or another map with the same order: not listed.
	expect(statesInOrder({...next, order: ['a', 'b', 'c']})).toBeUndefined();
	expect(statesInOrder({...next, byId: {...next.byId}})).toBeUndefined();
	// A few rows read again make a new map of their own: not listed either.
	writes.updatePods([pod('c', 9)], 3000);
	expect(statesInOrder(store.getState().pods)).toBeUndefined();
});
