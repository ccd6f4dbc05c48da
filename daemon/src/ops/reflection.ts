// gRPC server reflection (grpc.reflection.v1 and v1alpha) serving the real descriptors: the
// FileDescriptorProtos embedded in the generated code (sdk/src/gen), with their imports, so stock
// tools (`buf curl`, grpcurl) can list and call hookd's services. Feeding @grpc/reflection
// descriptors from proto-loader instead breaks clients (DESIGN §8).
import { toBinary } from "@bufbuild/protobuf";
import type { DescFile, DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { Server } from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";

/** The reflection services' own names, for logs and `hookd status`. */
export const REFLECTION_SERVICES = ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"] as const;

function withImports(files: readonly DescFile[]): DescFile[] {
  const seen = new Map<string, DescFile>();
  const visit = (file: DescFile): void => {
    if (seen.has(file.name)) return;
    seen.set(file.name, file);
    for (const dependency of file.dependencies) visit(dependency);
  };
  for (const file of files) visit(file);
  return [...seen.values()];
}

/**
 * Adds reflection to `server`, listing exactly `services` (the ones served there) and able to
 * describe every type they reach.
 */
export function addReflection(server: Server, services: readonly DescService[]): void {
  const files = withImports(services.map((service) => service.file));
  const fileDescriptorProtos = files.map((file) => Buffer.from(toBinary(FileDescriptorProtoSchema, file.proto)));
  // @grpc/reflection reads a proto-loader PackageDefinition only for each entry's
  // `fileDescriptorProtos`; one entry carrying every file is enough.
  const packageDefinition = { "hookd.descriptors": { format: "", type: {}, fileDescriptorProtos } };
  const reflection = new ReflectionService(packageDefinition as unknown as ConstructorParameters<typeof ReflectionService>[0], {
    services: services.map((service) => service.typeName),
  });
  reflection.addToServer(server);
}
