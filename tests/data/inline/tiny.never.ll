; ModuleID = 'tiny.c'
source_filename = "tiny.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@op = internal global i32 (i32)* @twice, align 8
@.str = private unnamed_addr constant [5 x i8] c"%ld\0A\00", align 1

; Function Attrs: nofree norecurse nosync nounwind readonly uwtable
define dso_local i32 @sum_squares(i32* nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #0 !dbg !9 {
  %3 = icmp sgt i32 %1, 0, !dbg !12
  br i1 %3, label %4, label %6, !dbg !13

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !12
  br label %8, !dbg !13

6:                                                ; preds = %18, %2
  %7 = phi i32 [ 0, %2 ], [ %20, %18 ], !dbg !14
  ret i32 %7, !dbg !15

8:                                                ; preds = %4, %18
  %9 = phi i64 [ 0, %4 ], [ %21, %18 ]
  %10 = phi i32 [ 0, %4 ], [ %20, %18 ]
  %11 = getelementptr inbounds i32, i32* %0, i64 %9, !dbg !16
  %12 = load i32, i32* %11, align 4, !dbg !16, !tbaa !17
  %13 = icmp sgt i32 %12, 3, !dbg !21
  br i1 %13, label %14, label %16, !dbg !16

14:                                               ; preds = %8
  %15 = tail call fastcc i32 @square(i32 noundef %12), !dbg !22
  br label %18, !dbg !16

16:                                               ; preds = %8
  %17 = tail call fastcc i32 @clamp(i32 noundef %12, i32 noundef -2, i32 noundef 2), !dbg !23
  br label %18, !dbg !16

18:                                               ; preds = %16, %14
  %19 = phi i32 [ %15, %14 ], [ %17, %16 ], !dbg !16
  %20 = add nsw i32 %19, %10, !dbg !24
  %21 = add nuw nsw i64 %9, 1, !dbg !25
  %22 = icmp eq i64 %21, %5, !dbg !12
  br i1 %22, label %6, label %8, !dbg !13, !llvm.loop !26
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define internal fastcc i32 @square(i32 noundef %0) unnamed_addr #1 !dbg !29 {
  %2 = mul nsw i32 %0, %0, !dbg !30
  ret i32 %2, !dbg !31
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define internal fastcc i32 @clamp(i32 noundef %0, i32 noundef %1, i32 noundef %2) unnamed_addr #1 !dbg !32 {
  %4 = icmp slt i32 %0, %1, !dbg !33
  %5 = icmp sgt i32 %0, %2, !dbg !34
  %6 = select i1 %5, i32 %2, i32 %0, !dbg !34
  %7 = select i1 %4, i32 %1, i32 %6, !dbg !34
  ret i32 %7, !dbg !35
}

; Function Attrs: nounwind uwtable
define dso_local i32 @main(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #2 !dbg !36 {
  %3 = icmp sgt i32 %0, 1, !dbg !37
  br i1 %3, label %4, label %8, !dbg !38

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8*, i8** %1, i64 1, !dbg !39
  %6 = load i8*, i8** %5, align 8, !dbg !39, !tbaa !40
  %7 = tail call i32 @atoi(i8* noundef %6) #8, !dbg !42
  br label %8, !dbg !38

8:                                                ; preds = %2, %4
  %9 = phi i32 [ %7, %4 ], [ 1000, %2 ], !dbg !38
  %10 = sext i32 %9 to i64, !dbg !43
  %11 = shl nsw i64 %10, 2, !dbg !44
  %12 = tail call noalias i8* @malloc(i64 noundef %11) #9, !dbg !45
  %13 = bitcast i8* %12 to i32*, !dbg !45
  %14 = icmp eq i8* %12, null, !dbg !46
  br i1 %14, label %74, label %15, !dbg !47

15:                                               ; preds = %8
  %16 = icmp sgt i32 %9, 0, !dbg !48
  br i1 %16, label %18, label %17, !dbg !49

17:                                               ; preds = %44, %40, %15
  br label %61, !dbg !50

18:                                               ; preds = %15
  %19 = zext i32 %9 to i64, !dbg !48
  %20 = icmp ult i32 %9, 8, !dbg !49
  br i1 %20, label %42, label %21, !dbg !49

21:                                               ; preds = %18
  %22 = and i64 %19, 4294967288, !dbg !49
  br label %23, !dbg !49

23:                                               ; preds = %23, %21
  %24 = phi i64 [ 0, %21 ], [ %37, %23 ], !dbg !51
  %25 = phi <4 x i32> [ <i32 0, i32 1, i32 2, i32 3>, %21 ], [ %38, %23 ], !dbg !52
  %26 = mul nsw <4 x i32> %25, <i32 7, i32 7, i32 7, i32 7>, !dbg !52
  %27 = mul <4 x i32> %25, <i32 7, i32 7, i32 7, i32 7>, !dbg !52
  %28 = add <4 x i32> %27, <i32 28, i32 28, i32 28, i32 28>, !dbg !52
  %29 = urem <4 x i32> %26, <i32 23, i32 23, i32 23, i32 23>, !dbg !53
  %30 = urem <4 x i32> %28, <i32 23, i32 23, i32 23, i32 23>, !dbg !53
  %31 = add nsw <4 x i32> %29, <i32 -5, i32 -5, i32 -5, i32 -5>, !dbg !54
  %32 = add nsw <4 x i32> %30, <i32 -5, i32 -5, i32 -5, i32 -5>, !dbg !54
  %33 = getelementptr inbounds i32, i32* %13, i64 %24, !dbg !51
  %34 = bitcast i32* %33 to <4 x i32>*, !dbg !55
  store <4 x i32> %31, <4 x i32>* %34, align 4, !dbg !55, !tbaa !17
  %35 = getelementptr inbounds i32, i32* %33, i64 4, !dbg !55
  %36 = bitcast i32* %35 to <4 x i32>*, !dbg !55
  store <4 x i32> %32, <4 x i32>* %36, align 4, !dbg !55, !tbaa !17
  %37 = add nuw i64 %24, 8, !dbg !51
  %38 = add <4 x i32> %25, <i32 8, i32 8, i32 8, i32 8>, !dbg !52
  %39 = icmp eq i64 %37, %22, !dbg !51
  br i1 %39, label %40, label %23, !dbg !51, !llvm.loop !56

40:                                               ; preds = %23
  %41 = icmp eq i64 %22, %19, !dbg !49
  br i1 %41, label %17, label %42, !dbg !49

42:                                               ; preds = %18, %40
  %43 = phi i64 [ 0, %18 ], [ %22, %40 ]
  br label %44, !dbg !49

44:                                               ; preds = %42, %44
  %45 = phi i64 [ %51, %44 ], [ %43, %42 ]
  %46 = trunc i64 %45 to i32, !dbg !52
  %47 = mul nsw i32 %46, 7, !dbg !52
  %48 = urem i32 %47, 23, !dbg !53
  %49 = add nsw i32 %48, -5, !dbg !54
  %50 = getelementptr inbounds i32, i32* %13, i64 %45, !dbg !59
  store i32 %49, i32* %50, align 4, !dbg !55, !tbaa !17
  %51 = add nuw nsw i64 %45, 1, !dbg !51
  %52 = icmp eq i64 %51, %19, !dbg !48
  br i1 %52, label %17, label %44, !dbg !49, !llvm.loop !60

53:                                               ; preds = %61
  %54 = tail call fastcc i64 @checksum(i32* noundef nonnull %13, i32 noundef %9), !dbg !62
  %55 = srem i64 %54, 1000, !dbg !63
  %56 = tail call fastcc i32 @fib(i32 noundef 15), !dbg !64
  %57 = sext i32 %56 to i64, !dbg !64
  %58 = add i64 %55, %71, !dbg !65
  %59 = add i64 %58, %57, !dbg !66
  %60 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([5 x i8], [5 x i8]* @.str, i64 0, i64 0), i64 noundef %59), !dbg !67
  tail call void @free(i8* noundef %12) #9, !dbg !68
  br label %74

61:                                               ; preds = %17, %61
  %62 = phi i32 [ %72, %61 ], [ 0, %17 ]
  %63 = phi i64 [ %71, %61 ], [ 0, %17 ]
  %64 = tail call i32 @sum_squares(i32* noundef nonnull %13, i32 noundef %9), !dbg !69
  %65 = tail call fastcc i32 @square(i32 noundef %62), !dbg !70
  %66 = add nsw i32 %65, %64, !dbg !71
  %67 = load volatile i32 (i32)*, i32 (i32)** @op, align 8, !dbg !72, !tbaa !40
  %68 = tail call i32 %67(i32 noundef %62) #9, !dbg !72
  %69 = add nsw i32 %66, %68, !dbg !73
  %70 = sext i32 %69 to i64, !dbg !69
  %71 = add nsw i64 %63, %70, !dbg !74
  %72 = add nuw nsw i32 %62, 1, !dbg !75
  %73 = icmp eq i32 %72, 50, !dbg !76
  br i1 %73, label %53, label %61, !dbg !50, !llvm.loop !77

74:                                               ; preds = %8, %53
  %75 = phi i32 [ 0, %53 ], [ 1, %8 ], !dbg !79
  ret i32 %75, !dbg !80
}

; Function Attrs: inlinehint mustprogress nofree nounwind readonly uwtable willreturn
declare i32 @atoi(i8* noundef nonnull) local_unnamed_addr #3

; Function Attrs: inaccessiblememonly mustprogress nofree nounwind willreturn
declare noalias noundef i8* @malloc(i64 noundef) local_unnamed_addr #4

; Function Attrs: nofree norecurse nosync nounwind readonly uwtable
define internal fastcc i64 @checksum(i32* nocapture noundef readonly %0, i32 noundef %1) unnamed_addr #0 !dbg !81 {
  %3 = icmp sgt i32 %1, 0, !dbg !82
  br i1 %3, label %4, label %6, !dbg !83

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !82
  br label %8, !dbg !83

6:                                                ; preds = %8, %2
  %7 = phi i64 [ 0, %2 ], [ %16, %8 ], !dbg !84
  ret i64 %7, !dbg !85

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %17, %8 ]
  %10 = phi i64 [ 0, %4 ], [ %16, %8 ]
  %11 = mul nsw i64 %10, 31, !dbg !86
  %12 = getelementptr inbounds i32, i32* %0, i64 %9, !dbg !87
  %13 = load i32, i32* %12, align 4, !dbg !87, !tbaa !17
  %14 = tail call fastcc i32 @clamp(i32 noundef %13, i32 noundef 0, i32 noundef 1000), !dbg !88
  %15 = sext i32 %14 to i64, !dbg !88
  %16 = add nsw i64 %11, %15, !dbg !89
  %17 = add nuw nsw i64 %9, 1, !dbg !90
  %18 = icmp eq i64 %17, %5, !dbg !82
  br i1 %18, label %6, label %8, !dbg !83, !llvm.loop !91
}

; Function Attrs: nofree nosync nounwind readnone uwtable
define internal fastcc i32 @fib(i32 noundef %0) unnamed_addr #5 !dbg !93 {
  %2 = icmp slt i32 %0, 2, !dbg !94
  br i1 %2, label %11, label %3, !dbg !95

3:                                                ; preds = %1, %3
  %4 = phi i32 [ %8, %3 ], [ %0, %1 ]
  %5 = phi i32 [ %9, %3 ], [ 0, %1 ]
  %6 = add nsw i32 %4, -1, !dbg !96
  %7 = tail call fastcc i32 @fib(i32 noundef %6), !dbg !97
  %8 = add nsw i32 %4, -2, !dbg !98
  %9 = add nsw i32 %7, %5, !dbg !99
  %10 = icmp ult i32 %4, 4, !dbg !94
  br i1 %10, label %11, label %3, !dbg !95

11:                                               ; preds = %3, %1
  %12 = phi i32 [ 0, %1 ], [ %9, %3 ]
  %13 = phi i32 [ %0, %1 ], [ %8, %3 ]
  %14 = add nsw i32 %13, %12, !dbg !99
  ret i32 %14, !dbg !100
}

; Function Attrs: nofree nounwind
declare noundef i32 @printf(i8* nocapture noundef readonly, ...) local_unnamed_addr #6

; Function Attrs: inaccessiblemem_or_argmemonly mustprogress nounwind willreturn
declare void @free(i8* nocapture noundef) local_unnamed_addr #7

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define internal i32 @twice(i32 noundef %0) #1 !dbg !101 {
  %2 = shl nsw i32 %0, 1, !dbg !102
  ret i32 %2, !dbg !103
}

attributes #0 = { nofree norecurse nosync nounwind readonly uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { inlinehint mustprogress nofree nounwind readonly uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { inaccessiblememonly mustprogress nofree nounwind willreturn "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree nosync nounwind readnone uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nofree nounwind "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { inaccessiblemem_or_argmemonly mustprogress nounwind willreturn "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nounwind readonly willreturn }
attributes #9 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "tiny.c", directory: ".", checksumkind: CSK_MD5, checksum: "ed0e9ffe4162619badeeccf08f8feb94")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "sum_squares", scope: !1, file: !1, line: 22, type: !10, scopeLine: 22, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!10 = !DISubroutineType(types: !11)
!11 = !{}
!12 = !DILocation(line: 24, column: 21, scope: !9)
!13 = !DILocation(line: 24, column: 3, scope: !9)
!14 = !DILocation(line: 0, scope: !9)
!15 = !DILocation(line: 25, column: 3, scope: !9)
!16 = !DILocation(line: 24, column: 36, scope: !9)
!17 = !{!18, !18, i64 0}
!18 = !{!"int", !19, i64 0}
!19 = !{!"omnipotent char", !20, i64 0}
!20 = !{!"Simple C/C++ TBAA"}
!21 = !DILocation(line: 24, column: 41, scope: !9)
!22 = !DILocation(line: 24, column: 47, scope: !9)
!23 = !DILocation(line: 24, column: 62, scope: !9)
!24 = !DILocation(line: 24, column: 33, scope: !9)
!25 = !DILocation(line: 24, column: 26, scope: !9)
!26 = distinct !{!26, !13, !27, !28}
!27 = !DILocation(line: 24, column: 79, scope: !9)
!28 = !{!"llvm.loop.mustprogress"}
!29 = distinct !DISubprogram(name: "square", scope: !1, file: !1, line: 6, type: !10, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!30 = !DILocation(line: 6, column: 37, scope: !29)
!31 = !DILocation(line: 6, column: 28, scope: !29)
!32 = distinct !DISubprogram(name: "clamp", scope: !1, file: !1, line: 8, type: !10, scopeLine: 8, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!33 = !DILocation(line: 9, column: 9, scope: !32)
!34 = !DILocation(line: 9, column: 7, scope: !32)
!35 = !DILocation(line: 12, column: 1, scope: !32)
!36 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 31, type: !10, scopeLine: 31, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!37 = !DILocation(line: 32, column: 16, scope: !36)
!38 = !DILocation(line: 32, column: 11, scope: !36)
!39 = !DILocation(line: 32, column: 27, scope: !36)
!40 = !{!41, !41, i64 0}
!41 = !{!"any pointer", !19, i64 0}
!42 = !DILocation(line: 32, column: 22, scope: !36)
!43 = !DILocation(line: 33, column: 33, scope: !36)
!44 = !DILocation(line: 33, column: 31, scope: !36)
!45 = !DILocation(line: 33, column: 12, scope: !36)
!46 = !DILocation(line: 34, column: 8, scope: !36)
!47 = !DILocation(line: 34, column: 7, scope: !36)
!48 = !DILocation(line: 35, column: 21, scope: !36)
!49 = !DILocation(line: 35, column: 3, scope: !36)
!50 = !DILocation(line: 37, column: 3, scope: !36)
!51 = !DILocation(line: 35, column: 26, scope: !36)
!52 = !DILocation(line: 35, column: 41, scope: !36)
!53 = !DILocation(line: 35, column: 46, scope: !36)
!54 = !DILocation(line: 35, column: 51, scope: !36)
!55 = !DILocation(line: 35, column: 36, scope: !36)
!56 = distinct !{!56, !49, !57, !28, !58}
!57 = !DILocation(line: 35, column: 53, scope: !36)
!58 = !{!"llvm.loop.isvectorized", i32 1}
!59 = !DILocation(line: 35, column: 31, scope: !36)
!60 = distinct !{!60, !49, !57, !28, !61, !58}
!61 = !{!"llvm.loop.unroll.runtime.disable"}
!62 = !DILocation(line: 38, column: 12, scope: !36)
!63 = !DILocation(line: 38, column: 27, scope: !36)
!64 = !DILocation(line: 38, column: 36, scope: !36)
!65 = !DILocation(line: 38, column: 34, scope: !36)
!66 = !DILocation(line: 38, column: 9, scope: !36)
!67 = !DILocation(line: 39, column: 3, scope: !36)
!68 = !DILocation(line: 40, column: 3, scope: !36)
!69 = !DILocation(line: 37, column: 41, scope: !36)
!70 = !DILocation(line: 37, column: 61, scope: !36)
!71 = !DILocation(line: 37, column: 59, scope: !36)
!72 = !DILocation(line: 37, column: 73, scope: !36)
!73 = !DILocation(line: 37, column: 71, scope: !36)
!74 = !DILocation(line: 37, column: 38, scope: !36)
!75 = !DILocation(line: 37, column: 27, scope: !36)
!76 = !DILocation(line: 37, column: 21, scope: !36)
!77 = distinct !{!77, !50, !78, !28}
!78 = !DILocation(line: 37, column: 77, scope: !36)
!79 = !DILocation(line: 0, scope: !36)
!80 = !DILocation(line: 42, column: 1, scope: !36)
!81 = distinct !DISubprogram(name: "checksum", scope: !1, file: !1, line: 14, type: !10, scopeLine: 14, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!82 = !DILocation(line: 16, column: 21, scope: !81)
!83 = !DILocation(line: 16, column: 3, scope: !81)
!84 = !DILocation(line: 0, scope: !81)
!85 = !DILocation(line: 17, column: 3, scope: !81)
!86 = !DILocation(line: 16, column: 37, scope: !81)
!87 = !DILocation(line: 16, column: 50, scope: !81)
!88 = !DILocation(line: 16, column: 44, scope: !81)
!89 = !DILocation(line: 16, column: 42, scope: !81)
!90 = !DILocation(line: 16, column: 26, scope: !81)
!91 = distinct !{!91, !83, !92, !28}
!92 = !DILocation(line: 16, column: 63, scope: !81)
!93 = distinct !DISubprogram(name: "fib", scope: !1, file: !1, line: 20, type: !10, scopeLine: 20, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!94 = !DILocation(line: 20, column: 34, scope: !93)
!95 = !DILocation(line: 20, column: 32, scope: !93)
!96 = !DILocation(line: 20, column: 50, scope: !93)
!97 = !DILocation(line: 20, column: 44, scope: !93)
!98 = !DILocation(line: 20, column: 63, scope: !93)
!99 = !DILocation(line: 20, column: 55, scope: !93)
!100 = !DILocation(line: 20, column: 25, scope: !93)
!101 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 28, type: !10, scopeLine: 28, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)
!102 = !DILocation(line: 28, column: 36, scope: !101)
!103 = !DILocation(line: 28, column: 27, scope: !101)
