import {Kind, type DocumentNode, type SelectionSetNode, type ValueNode} from 'graphql';

type Variables = Readonly<Record<string, unknown>>;

type Field = {
	/** The key in the answer: the alias, else the field's name. */
	readonly key: string;
	readonly name: string;
	readonly args: ((variables: Variables) => Record<string, unknown>) | undefined;
	readonly fields: readonly Field[] | undefined;
};

function valueOf(node: ValueNode, variables: Variables): unknown {
	switch (node.kind) {
		case Kind.VARIABLE: {
			return variables[node.name.value];
		}

		case Kind.INT: {
			return Number.parseInt(node.value, 10);
		}

		case Kind.FLOAT: {
			return Number.parseFloat(node.value);
		}

		case Kind.NULL: {
			return null;
		}

		case Kind.LIST: {
			return node.values.map(value => valueOf(value, variables));
		}

		case Kind.OBJECT: {
			const object: Record<string, unknown> = {};
			for (const field of node.fields) {
				const value = valueOf(field.value, variables);
				// A variable not given leaves its field out, as graphql-js does.
				if (value !== undefined) {
					object[field.name.value] = value;
				}
			}

			return object;
		}

		default: {
			return node.value;
		}
	}
}

function compileFields(selection: SelectionSetNode): Field[] {
	return selection.selections.map(node => {
		if (node.kind !== Kind.FIELD) {
			throw new Error('a projection reads fields only (no fragments)');
		}

		const {arguments: argumentNodes = []} = node;
		return {
			key: node.alias?.value ?? node.name.value,
			name: node.name.value,
			args:
				argumentNodes.length === 0
					? undefined
					: (variables: Variables) => {
							const args: Record<string, unknown> = {};
							for (const argument of argumentNodes) {
								const value = valueOf(argument.value, variables);
								if (value !== undefined) {
									args[argument.name.value] = value;
								}
							}

							return args;
						},
			fields: node.selectionSet ? compileFields(node.selectionSet) : undefined,
		};
	});
}

function complete(value: unknown, fields: readonly Field[] | undefined, variables: Variables): unknown {
	if (value === null || value === undefined) {
		return null;
	}

	if (Array.isArray(value)) {
		return value.map(item => complete(item, fields, variables));
	}

	return fields ? select(value as Record<string, unknown>, fields, variables) : value;
}

function select(source: Record<string, unknown>, fields: readonly Field[], variables: Variables): Record<string, unknown> {
	const answer: Record<string, unknown> = {};
	for (const field of fields) {
		const property = source[field.name];
		const value = typeof property === 'function' ? (property as (args: unknown) => unknown).call(source, field.args?.(variables) ?? {}) : property;
		answer[field.key] = complete(value, field.fields, variables);
	}

	return answer;
}

/**
A query's answer read straight from the simulator's views, as graphql-js's default resolvers read
them (a function-valued field is called with its arguments), without validating, coercing or
tracking paths: the simulated past asks the same three documents thousands of times, and graphql-js
spends 5 µs a field doing what the views already did. Tests check it answers what graphql-js does.
Fields only: a fragment throws when the document is compiled.
*/
export function compileProjection(document: DocumentNode): (rootValue: Record<string, unknown>, variables?: Variables) => Record<string, unknown> {
	const operation = document.definitions.find(definition => definition.kind === Kind.OPERATION_DEFINITION);
	if (!operation) {
		throw new Error('the document has no operation');
	}

	const fields = compileFields(operation.selectionSet);
	return (rootValue, variables = {}) => select(rootValue, fields, variables);
}
